//! What `--help` prints: one usage text per subcommand, here those that play and judge positions and engines, in
//! `usage_records.rs` those over game records and the fitting (the overview that lists them all, and the protocol's
//! own options, are `help.rs`'s). `pbrain-tengen CMD --help` (or `-h`) prints the command's own text and exits 0;
//! an unknown option prints the error, then the text, on stderr and exits 2 (every usage ends with `help.rs`'s
//! lines on where errors go and what the exit status tells).

/// A subcommand's name, its one-line summary, and its usage with every option.
pub(super) struct Command {
    pub name: &'static str,
    pub summary: &'static str,
    pub usage: &'static str,
}

/// The subcommands that play and judge, in the order the overview lists them (first).
pub(super) const PLAYING: &[Command] = &[
    Command {
        name: "play",
        summary: "a game against the engine in the terminal",
        usage: "usage: pbrain-tengen play [--rule R] [--size N] [--black|--white] [--ms N] [--opening-rule R]
  --rule R           freestyle, standard, renju (default) or caro
  --size N           board side, 5 to 22 (default 15)
  --black, --white   your colour (default black)
  --ms N             the engine's time a move in milliseconds (default 1000)
  --opening-rule R   negotiate the opening first: swap2, rif, yamaguchi, soosorvN, taraguchiN
Type moves as h8; also hint, undo and quit.",
    },
    Command {
        name: "serve",
        summary: "a board in the browser (http://127.0.0.1:8080/ by default)",
        usage: "usage: pbrain-tengen serve [--port P] [--host H]
  --port P   the port to listen on (default 8080; 0: any free port)
  --host H   the address to listen on (default 127.0.0.1)",
    },
    Command {
        name: "analyze",
        summary: "the threats, both evaluations and a search of one position",
        usage: "usage: pbrain-tengen analyze [options] MOVES   (for example: analyze h8 h9 j10)
  --rule R                  freestyle, standard, renju (default) or caro
  --size N                  board side, 5 to 22 (default 15)
  --ms N                    time for the search in milliseconds (default 2000)
  --depth N                 stop the search at this depth
  --threads N               search threads (default 1)
  --raw                     also print the search's raw score and the evaluation's parts
  --weights FILE            classical evaluation tables other than the embedded ones
  --eval E                  the search's evaluation: default (the network where the build has one),
                            classical or network
  --network FILE            a network file other than the embedded one (implies --eval network)
  --params FILE             the search's tunable values from a file of 'param NAME VALUE' lines
  --file FILE               search every position line of FILE (- for stdin) as a move of --ms would be:
                            one line each (win MOVE in N plies, or no MOVE score S) and a count of the proved
  --jobs N                  positions searched at a time with --file (default 1)",
    },
    Command {
        name: "forbid",
        summary: "Black's forbidden points of position lines read on stdin",
        usage: "usage: pbrain-tengen forbid [--rule R] [--size N] [--jobs N]   < position lines
  --rule R   the rule the positions are judged under (default renju)
  --size N   board side, 5 to 22 (default 15)
  --jobs N   positions answered in parallel (default: every core)
Each position line (DESIGN.md) gets one answer line: the forbidden points, or -; a bad line none (skipped).",
    },
    Command {
        name: "solve",
        summary: "VCF or VCT of position lines read on stdin",
        usage: "usage: pbrain-tengen solve [--vct] [--ms N] [--nodes N] [--shortest] [--summary] [--rule R] [--size N] [--jobs N]   < position lines
  --vct        look for a VCT (a win by fours and threes) rather than a VCF
  --ms N       time budget per position in milliseconds (default: VCF unlimited, VCT 10000)
  --nodes N    node budget per position (default: none)
  --shortest   the VCF with the fewest fours
  --summary    a last line counting the answers (# proved W of T ...)
  --rule R, --size N, --jobs N   as for forbid
Each position line gets one answer line: win <moves>, none or unknown; a bad line none (skipped).",
    },
    Command {
        name: "bench",
        summary: "the search's node signature and speed on fixed positions",
        usage: "usage: pbrain-tengen bench [DEPTH]
       pbrain-tengen bench --census [--nodes N] [--file FILE] [--params FILE]
Searches fixed renju, freestyle and standard positions to fixed depths on one thread; the last line is
<N> nodes <NPS> nps, N being the same on every machine for the same search. With --census, every position
(the bench's, or one a line of FILE: moves, Black first, an optional rule word first) is searched to N nodes
(default 1000000) as self-play searches, then 'name<TAB>value' lines tell where the nodes went: by remaining
depth, forced nodes, leaf probes, quiescence, the root's and late solvers, re-searches, nodes and time to each
depth (scripts/census.sh sets two builds side by side).",
    },
    Command {
        name: "match",
        summary: "a match between protocol engines (any Gomocup engine)",
        usage: "usage: pbrain-tengen match --engine CMD [--name NAME] --engine CMD [--name NAME] [more engines] [options]
  --engine CMD            an engine's command line (twice at least); --name NAME names the one before it
  --rule R, --size N      the rule (default renju) and the board side (default 15)
  --games N               games per pair of engines (default 2)
  --turn-ms MS            time a move (default 1000); --match-ms MS: time a game (0: none)
  --tolerance-ms MS       how late an answer may come before it loses on time
  --max-memory BYTES      INFO max_memory sent to the engines
  --draw-at N             a game is drawn after N moves
  --openings FILE         openings to play, each with colours swapped
  --random-openings N     N random balanced openings (--opening-stones K, --opening-depth D, --seed S);
                          --unseen-in GAMES.tgr (repeatable) leaves out those the games of the file started from
  --opening-rule R        negotiate each opening: swap2, rif, yamaguchi, soosorvN, taraguchiN
  --symmetries            play each opening in its eight symmetries
  --concurrency K         games at a time (default 1)
  --sgf DIR               write every game as SGF
  --sprt ELO0,ELO1[,ALPHA,BETA]   stop when a sequential test decides (two engines)
  --no-suspend            leave the idle engine running
  --processes fresh|kept  a new process per game (default, as GomocupJudge) or each engine's kept from game
                          to game (as Piskvork and c-gomoku-cli)
  --shard I/N             play only shard I of N (a block of the opening pairs; the SPRT waits for merge)
  --results FILE          write the settings and every game's result to FILE, for pbrain-tengen merge",
    },
    Command {
        name: "gauntlet",
        summary: "the engine against every engine of a folder, the yardstick of strength claims",
        usage: "usage: pbrain-tengen gauntlet [--opponents DIR] [options] [match options]
  --opponents DIR         the folder of opponent engines (default: GAUNTLET=DIR); a name holding renju,
                          freestyle, standard (or gomoku) or caro plays that rule only
  --engine CMD            the engine under test (default: this binary with --say-score); --name NAME (tengen)
  --rule R[,R...]         the rules to play (default renju); repeatable
  --only NAME[,NAME...]   play only these opponents
  --out DIR               write OPPONENT-RULE.results (for merge) and OPPONENT-RULE.tgr (the games) there
  --games N               games per opponent and rule (default: each opening with both colours)
  --turn-ms MS            time a move (default 500); --concurrency K games at a time (default 2)
  --shard I/N             play only shard I of N of every match
  --processes kept|fresh|both   each engine's process kept from game to game (default; OPPONENT-RULE-kept.*),
                          a fresh one each game, or both: each match twice, compared opening pair by pair
  every other match option (--openings FILE, --random-openings N, --sgf DIR, ...) is passed to each match",
    },
];
