"""Prints what a script can see of how it was started; ends as its first argument says."""
import json
import os
import sys

seen = {
    "argv": sys.argv,
    "file": __file__,
    "name": __name__,
    "path0": sys.path[0],
    "spec": None if __spec__ is None else __spec__.name,
    "package": __package__,
    "torch_loaded": "torch" in sys.modules,  # gradscope must not import torch for the script
    "main_is_me": sys.modules["__main__"].__dict__ is globals(),
}
if os.environ.get("PROBE_MP_MAIN"):
    seen["mp_main_is_me"] = sys.modules.get("__mp_main__") is sys.modules["__main__"]
print(json.dumps(seen, sort_keys=True))
sys.stdout.flush()

how = sys.argv[1] if len(sys.argv) > 1 else "return"
if how == "exit0":
    sys.exit(0)
elif how == "exit3":
    sys.exit(3)
elif how == "exitmsg":
    sys.exit("goodbye from the probe")
elif how == "exitnone":
    sys.exit(None)
elif how == "raise":
    def inner():
        raise ValueError("probe failure")
    inner()
elif how == "chained":
    try:
        {}["missing"]
    except KeyError as exc:
        raise RuntimeError("while handling") from exc
