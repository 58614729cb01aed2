"""The child processes of ``check_ruleset`` (``python -m rulelang.testing
play|replay``): how a game is sent to one, and the fresh-process replay,
which answers with a digest of the state at every step."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
from typing import Any, Dict, List, Sequence, Tuple, Union

import attrs

from .. import api
from ..engine import Game, compile_ruleset
from ..engine.kinds import St
from ..errors import IllegalMoveError, RulesetError
from ..limits import Limits

#: A child process and the job to send it.
Child = Tuple[subprocess.Popen[bytes], bytes]


def _child(command: str, job: bytes, hash_seed: Union[int, str, None]) -> Child:
    """A ``python -m rulelang.testing COMMAND`` process (and its input),
    able to import this rulelang."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = str(hash_seed)
    proc = subprocess.Popen([sys.executable, "-m", "rulelang.testing", command],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    return proc, job


def _communicate_all(procs: Sequence[Child], timeout: float = 3600) -> List[Tuple[bytes, bytes]]:
    """(stdout, stderr) of every child, all running at once."""
    import concurrent.futures

    def talk(proc_job: Child) -> Tuple[bytes, bytes]:
        proc, job = proc_job
        try:
            return proc.communicate(job, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            return out, err + b"\n(timed out)"
    with concurrent.futures.ThreadPoolExecutor(max(1, len(procs))) as pool:
        return list(pool.map(talk, procs))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _digests(states: Sequence[St]) -> List[str]:
    """A digest of the state at every step (its saved JSON without the log,
    which grows with every step) and of the whole saved JSON at the end."""
    out = [_digest(json.dumps(st._plain(), separators=(",", ":"))) for st in states]
    out.append(_digest(states[-1].to_json()))
    return out


def _job(game: Game, games: List[Tuple[Dict[str, Any], List[str]]]) -> bytes:
    rs = game.ruleset
    job: Dict[str, Any] = {"limits": attrs.asdict(game.limits), "games": games}
    if rs.source and not rs.filename.endswith((".json", ".yaml", ".yml")):
        job["source"], job["filename"] = rs.source, rs.filename
    else:
        job["pickle"] = pickle.dumps(rs).hex()
    return json.dumps(job).encode()


def _game_of_job(job: Dict[str, Any]) -> Game:
    limits = Limits(**job["limits"])
    if "source" in job:
        return api.loads(job["source"], job["filename"], limits)
    return Game(compile_ruleset(pickle.loads(bytes.fromhex(job["pickle"])), limits), limits)


def _replay_child(job: Dict[str, Any]) -> Dict[str, Any]:
    game = _game_of_job(job)
    out: List[List[str]] = []
    for spec, labels in job["games"]:
        st = game.new_game(players=spec["players"], seed=spec["seed"], chance=spec["chance"],
                           options=spec["options"], log=spec["log"])
        states = [st.clone()]
        failed = None
        for label in labels:
            try:
                st.apply(label)
            except (IllegalMoveError, RulesetError) as e:
                failed = f"!{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                break
            states.append(st.clone())
        digests = _digests(states)
        if failed:
            digests[-1] = failed     # in place of the digest of the whole state
        out.append(digests)
    return {"fingerprint": game.fingerprint, "digests": out}
