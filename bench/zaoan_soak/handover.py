"""The hand-over attacker (owner and hostile): a bar's pipe handed to the service and never read."""

import fcntl
import os
import random
import socket
import threading
import time

from .common import *  # noqa: F401,F403
from .loop import *  # noqa: F401,F403


# ------------------------------------------------------------------------------------------
# Hand-over attacker: hands the service a pipe with a bar's watch, clears O_NONBLOCK on its
# own copy, fills it and never reads, for 3-10 s, then again. A thread of the owner (uid 0,
# which may hand over: the service must write through its own open file description) and
# of the hostile (uid 65534: answered on the socket instead).
# ------------------------------------------------------------------------------------------

class PipeFiller(threading.Thread):
    KEYS = ("rounds", "handed-over", "answer", "closed", "refused", "errors", "filled-bytes")

    def __init__(self, w, until=None):
        super().__init__(daemon=True)
        self.w = w
        self.until = until    # seconds from t0 (the end of the classic phase), or None: to the end
        self.stats = dict.fromkeys(self.KEYS, 0)   # fixed keys: the snapshot may read it meanwhile
        w.extra["handover"] = self.stats

    def run(self):
        while not self.w.stopping and self.w.loop.running and not self.over():
            self.stats["rounds"] += 1
            try:
                self.round()
            except OSError:
                self.stats["errors"] += 1
                time.sleep(0.5)

    def over(self):
        return self.until is not None and time.time() - self.w.t0 >= self.until

    def round(self):
        read_end, write_end = os.pipe()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: one page
            sock.settimeout(10)
            try:
                sock.connect(self.w.path)
            except OSError:
                self.stats["refused"] += 1
                time.sleep(0.2)
                return
            socket.send_fds(sock, [b"watch --format=i3bar blocks time HH:mm:ss countdown\n"], [write_end])
            line = b""
            while b"\n" not in line:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                line += chunk
            line = line.split(b"\n", 1)[0]
            if line == b"ok writing to the bar's output":
                self.stats["handed-over"] += 1
            elif line.startswith(b"ERR busy"):
                self.stats["refused"] += 1
            else:
                self.stats["answer" if line else "closed"] += 1
            os.set_blocking(write_end, False)
            try:
                while True:
                    self.stats["filled-bytes"] += os.write(write_end, b"x" * 512)
            except BlockingIOError:
                pass
            os.set_blocking(write_end, True)     # on a shared description, the service's write would block
            until = monotonic() + random.uniform(3, 10)
            while monotonic() < until and not self.w.stopping and self.w.loop.running and not self.over():
                time.sleep(0.2)
        finally:
            sock.close()
            os.close(read_end)
            os.close(write_end)
