import json
import sys

print(json.dumps({"argv0": sys.argv[0], "args": sys.argv[1:], "name": __name__,
                  "spec": __spec__.name, "package": __package__, "path0": sys.path[0]}))
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
