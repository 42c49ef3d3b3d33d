//! The usage texts of the subcommands over game records (`positions`, `agree`, `rescore`, `merge`, books and
//! libraries), the runs that make and fit them (`selfplay`, `openings`, `tune`, `train`, `spsa`), and the scripted
//! engine `puppet`; the others' are `usage.rs`'s.

use super::usage::Command;

/// These subcommands, in the order the overview lists them (after [`super::usage::PLAYING`]).
pub(super) const RECORDS: &[Command] = &[
    Command {
        name: "positions",
        summary: "the positions of game files as position lines (for solve and analyze --file)",
        usage: "usage: pbrain-tengen positions [options] FILE.tgr|FILE.psq|DIR...
  --rule R                only the games of this rule (needed when the files mix rules or sizes)
  --every K               every K-th position after the opening (default 1: all)
  --min-stones N          positions with at least N stones
Each position before a move after the opening is one line (black stones, white stones, side to move), each
position once.",
    },
    Command {
        name: "agree",
        summary: "how often the engine plays what Gomocup's strongest engines played (agreement and regret)",
        usage: "usage: pbrain-tengen agree (--nodes N | --ms N | --depth D) [options] DIR|FILE.psq...
  --nodes N | --ms N      what each search may spend (a fixed node count is the same on a busy machine)
  --depth D               Tengen's iterations to depth D, whatever they cost (1: the evaluation of each move)
  --engine CMD            measure this protocol engine (its move only; BOARD ... DONE, a fresh INFO time_left
                          each; restarted after it fails to answer); by default Tengen in this process, which also
                          scores the played move alone for the regret. With --nodes an engine gets INFO max_node N
                          and ten minutes a move: only for engines that honour it (Tengen's builds)
  --eval E, --network FILE, --weights FILE, --params FILE   Tengen's evaluation and search values
  --hash-mb N             Tengen's table a search (default 64); --max-memory-mb N an engine's limit (default 350)
  --players N             the moves of each league's N strongest engines by its ratings.txt (default 2)
  --engines A,B           the moves of these engines instead
  --min-ms N              moves that took at least N ms (default 1000)
  --split S               judge (default), learn or all: the games of docs/agreement.md's split
  --sample N              at most N positions, a fixed sample (a smaller one is part of a larger)
  --concurrency K         positions searched at a time (default 1); --shard I/N this shard's positions
  --out FILE              the results file: each answer appended; positions already answered in it are not
                          searched again (a file of another build, engine or budget is refused)
  --judge R[,R...]        instead of choosing: Tengen as a judge scores the moves these results files chose, and the
                          played one, each searched alone with the budget, into --out
usage: pbrain-tengen agree --report FILE... [--games DIR...] [--judged FILE]   the report over results files
usage: pbrain-tengen agree --paired A[,A2] B[,B2] [--games DIR...] [--judged FILE]   two runs on the same positions
  --games DIR...          the games, to break the figures down by the threats on the board as well
  --judged FILE           a judge's scores: how much worse than the played move it rates each choice",
    },
    Command {
        name: "rescore",
        summary: "game files re-scored by deeper searches, with each position's best move (training targets)",
        usage: "usage: pbrain-tengen rescore --out FILE [options] FILE.tgr|FILE.psq|DIR...
  --out FILE              the game file to write (the games in input order)
  --nodes N               nodes a search (default 200000), one thread and a table of its own per game
  --every K               search every K-th position after the opening (default 1: all); the others keep their score
  --concurrency K         games searched at a time (default 1); the output is the same for any K
  --shard I/N             only shard I of N (a block of the input's games); merge --out joins the shards
  --engines A,B           only the games one of these engines played (Gomocup's names; the shards count those)",
    },
    Command {
        name: "selfplay",
        summary: "two configurations of the engine play each other in one process",
        usage: "usage: pbrain-tengen selfplay [options]
  --rule R                 the rule (default renju)
  --games N                games (default 2)
  --turn-ms MS, --match-ms MS   time a move (default 1000), time a game (default: none)
  --nodes N                nodes a move for both (also --a-nodes, --b-nodes); --a-depth D, --b-depth D
  --draw-at N              a game is drawn after N moves
  --max-memory BYTES       the engines' memory limit
  --weights FILE           classical tables for both (also --a-weights, --b-weights)
  --eval E                 default, classical or network for both (also --a-eval, --b-eval)
  --network FILE           a network file for both (also --a-network, --b-network)
  --params FILE            search parameters for both, as --params takes them (also --a-params, --b-params)
  --a-no-threats, --b-no-threats   turn off the threat solvers of one side
  --concurrency K          games at a time (default 1)
  --record FILE            append every game to a game file (.tgr) for training
  --resume                 go on with a run that stopped: the complete games FILE holds are not played again
  --openings renju26|varied|FILE   the 26 renju openings, varied openings near the centre, or a file's
                           (one a line, as match --openings reads them; each serves a pair of games)
  --sprt ELO0,ELO1[,A,B]   stop once the pentanomial SPRT decides (--games: the most games)
  --random-plies K         random moves after the opening (default 0)
  --opening-plies K        K random good moves added to each pair's opening, the same in both of its games
  --seed S                 the seed of the openings and random moves (default 1)
  --shard I/N              play only shard I of N (a block of the game pairs; the game file keeps the run's order)",
    },
    Command {
        name: "merge",
        summary: "merges the results or game files of a sharded match or self-play",
        usage: "usage: pbrain-tengen merge FILE...              (match results files: the whole run's statistics)
       pbrain-tengen merge --by-opening FILE...   (and each opening's games: W-L-D by colour, pairs won, even, lost)
       pbrain-tengen merge --out ALL.tgr FILE.tgr...   (game files: checked, then concatenated into ALL.tgr)
       pbrain-tengen merge --paired A.results B.results   (two runs against one opponent on the same openings,
                                                          compared opening pair by pair: the difference in Elo;
                                                          a run in shards: A1.results,A2.results)
       pbrain-tengen merge --runs FILE...   (whole runs against one opponent on the same openings, pooled into one
                                            report: the first engine's name and command may differ)
       pbrain-tengen merge --sgf NAME GAMES.sgf...   (another runner's games, as c-gomoku-cli's -sgf writes them,
                                            reported as a run of NAME: consecutive games of one opening are a pair)
Results files must come from the same run (engines, rule, clock, openings, SPRT); a shard given twice, a damaged
or unfinished file, or game files of different rules or with a damaged record are refused with a message.",
    },
    Command {
        name: "openings",
        summary: "balanced random openings, scored by a search",
        usage: "usage: pbrain-tengen openings [--rule R] [--size N] [--count N] [--stones K] [--depth D] [--max-score S] [--seed S]
                         [--unseen-in GAMES.tgr ...]
  --rule R, --size N   the rule (default renju) and the board side (default 15)
  --count N       openings to print (default 20)
  --stones K      stones in each opening (default 3)
  --depth D       depth of the search that scores them (default 6)
  --max-score S   keep openings the search scores within S of even (default 150)
  --seed S        the random seed (default 1)
  --unseen-in F   leave out the openings the games of F (.tgr, repeatable) started from, in any symmetry: openings
                  held out from a network's training games",
    },
    Command {
        name: "lib",
        summary: "RenLib opening libraries (.lib): dump, to SGF, from SGF",
        usage: "usage: pbrain-tengen lib dump FILE.lib | lib to-sgf FILE.lib [OUT.sgf] | lib from-sgf FILE.sgf OUT.lib
  dump       every variation's moves, with the comments, marks and board texts on the way
  to-sgf     the library as SGF with variations (to standard output without OUT.sgf)
  from-sgf   an SGF game tree as a RenLib 3.4 library
A damaged library is read up to the damage: what was read is shown or written, then the error.",
    },
    Command {
        name: "book",
        summary: "grows an opening book by deep searches; learns from games; shows a position's book moves",
        usage: "usage: pbrain-tengen book build --out FILE [options] | book learn FILE GAMES.tgr...
       | book reached FILE GAMES.tgr... [options] | book show FILE MOVES
  learn              counts, for each book move, how the games (.tgr) that played it went for its mover (W/D/L),
                     from scratch, and writes FILE back: the engine chooses by the score and these results
  reached            the positions past the book that games reached, an opening line each (for --openings):
                     --player NAME (only where NAME was to move), --min-games N (default 8),
                     --max-stones S (default 16)
  --out FILE         the book (grown further when it exists; written after every step, so a stopped run resumes)
  --rule R, --size N the rule (default renju) and the board side (default 15)
  --openings FILE    start positions, one opening line each (default: the 26 renju openings)
  --searches N       searches in this run (default 200; each step makes two)
  --ms N             time of each search in milliseconds (default 1000); or --nodes N, or --depth D
  --threads N        search threads (default: every core)
  --max-drop D       the largest cost of a move that is still expanded (default 120)
  --stone-cost C     the cost of each stone beyond the start (default 6)
  --max-stones S     no position with more stones is expanded (default 40)",
    },
    Command {
        name: "tune",
        summary: "fits the classical evaluation to game files",
        usage: "usage: pbrain-tengen tune [options] FILE...   (game files: .tgr or c-gomoku-cli .bin)
  --init prior|embedded|FILE   the starting tables
  --out FILE                   where the fitted tables go
  --epochs N, --batch N, --lr X, --order-lr X, --l2 X   the optimiser
  --k K                        score points per unit of the logistic curve
  --score-weight W             the target's blend of search score (W) and result (1 - W)
  --held-out F                 the share of games kept for the held-out loss
  --drop-vcf N                 leave out positions with a VCF found within N nodes
  --seed S                     the seed of the split and the order",
    },
    Command {
        name: "train",
        summary: "trains the network evaluation (or with --policy the move policy) from game files",
        usage: "usage: pbrain-tengen train [options] FILE...   (game files of one rule group)
  --rule R                     the rule group (default renju)
  --init FILE                  continue a network: its K (unless --k), and rows the data never reach kept;
                               a freestyle network can start standard's and the other way (one table each)
  --out FILE                   where the network goes
  --epochs N, --batch N, --lr X   the optimiser
  --k K                        score points per unit of the logistic curve
  --score-weight W             the target's blend of search score (W) and result (1 - W)
  --units X                    the network's output is written at X times K a logit (default 1)
  --held-out F                 the share of games kept for the held-out loss
  --drop-vcf N                 leave out positions with a VCF found within N nodes
  --standalone                 not residual: the network alone gives the value
  --empty-only                 pool the empty points alone (a third of the tables read, fewer sums kept)
  --head-epochs N              epochs of the head alone on the rounded tables after the fit (default 2)
  --seed S                     the seed of the split and the order
  --policy                     train the move policy instead, on the best moves of re-scored games (rescore)
                               and on the moves played in Gomocup's .psq games (never its judging games):
                               prints its top-1 and top-3 agreement beside today's ordering's (default 40
                               epochs, batch 256, lr 0.05)
  --network FILE               with --policy: the network whose sums it reads (default the embedded one)
  --l2 X                       with --policy: how hard the code tables are pulled back to their start (default 0)
  --hidden N                   with --policy: measure a hidden layer of N units over the point's features beside
                               the linear policy (floats; the file holds the linear part alone)
  --choices PATH               the network also learns to prefer the position after each best move (the moves
                               of Gomocup's .psq games as --players takes them; rescored games' best moves) to
                               those after today's ordering's highest other moves: choice pairs (issue 74)
  --choice-against PATH        rescored game files of the same games: where their best move (Tengen's own
                               search's) differs from the chosen one, a pair against it as well
  --choice-alternatives N      the ordering's other moves each best move is compared with (default 3)
  --choice-weight W            a pair's gradient against a position's (default 1)
  --choice-repeat K            each training pair counts K times an epoch (default 1)
  --choice-fours               a move that makes a single four takes part too, as the position after its block
                               (the mover to move again); without it such moves give no pair
  --players N                  .psq games (--policy, --choices): the moves of each league's N strongest engines
                               by its ratings.txt (default 2)
  --engines A,B                .psq games: these engines' moves instead
  --min-ms MS                  .psq games: moves that took less are left out (default 1000)
  --judging DIR                with --policy: also measure the policies on the yardstick's positions of these
                               Gomocup judging games (docs/agreement.md)",
    },
    Command {
        name: "spsa",
        summary: "tunes the search's parameters by games (SPSA), resumable",
        usage: "usage: pbrain-tengen spsa --state FILE [options]   (a new run starts in FILE, an old one resumes)
  --iterations N          iterations planned (one pair of games each; default 10000)
  --batch N               iterations played from one set of values (default 8)
  --tune search|time|trial|all|NAME,...  the values tuned (default search; trial: the parts on trial; names: those)
  --rule R, --eval E      the games' rule (default renju) and evaluation (default, classical, network or a file)
  --nodes N               nodes a move (default 20000; 0: by the clock)
  --turn-ms MS, --match-ms MS   the clock, when --nodes is 0
  --r-end X, --seed S     the step's rate at the end (default 0.002) and the seed (default 1)
  --concurrency K         games at a time (default 1)
  --stop-after N          play at most N iterations now (the run can be resumed)
  --report N              print the values every N batches (default 1)",
    },
    Command {
        name: "puppet",
        summary: "a scripted protocol engine for testing match runners",
        usage: "usage: pbrain-tengen puppet STEP...
Answers the protocol with scripted steps (see src/protocol/puppet.rs): moves, errors, delays, hangs.",
    },
];
