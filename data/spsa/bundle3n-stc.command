2026-12-07T20:44:48Z /work/bin/t-5003165 spsa --state /work/spsa/bundle3n-stc.spsa --concurrency 1   # build 5003165
