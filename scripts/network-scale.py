#!/usr/bin/env python3
"""network-scale.py IN OUT FACTOR: a copy of a network file (.tgnn) with its scale, the evaluation units per unit
of its logit, multiplied by FACTOR, as `train --units` would have written it (a screen of the network's weight in the
search without retraining). The scale is the float before the last byte of the body (the flags), and the body is
sealed by its FNV-1a checksum (src/eval/network/mod.rs)."""
import struct, sys
from tengen_files import is_sealed, sealed
if len(sys.argv) != 4:
    sys.exit('usage: network-scale.py IN.tgnn OUT.tgnn FACTOR')
try:
    factor = float(sys.argv[3])
    b = bytearray(open(sys.argv[1], 'rb').read())
except (ValueError, OSError) as e:
    sys.exit('error: %s' % e)
if len(b) < 32:
    sys.exit('error: %s: not a network file' % sys.argv[1])
at=len(b)-13
s=struct.unpack_from('<f',b,at)[0]
if not is_sealed(b):
    sys.exit('error: %s: not a network file with its checksum' % sys.argv[1])
struct.pack_into('<f',b,at,s*factor)
open(sys.argv[2],'wb').write(sealed(b[:-8]))
print('scale', s, '->', s * factor)
