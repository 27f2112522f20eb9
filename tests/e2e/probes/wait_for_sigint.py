import sys
import time

print("ready", flush=True)
if len(sys.argv) > 1 and sys.argv[1] == "raise":
    raise KeyboardInterrupt
time.sleep(60)
