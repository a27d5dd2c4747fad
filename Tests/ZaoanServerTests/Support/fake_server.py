"""A server that is not zaoan, for the client tests: it listens on PATH and, for each
connection, reads the request line and then misbehaves as MODE says. Standard library only
(Debian's /usr/bin/python3). Prints "ready" once listening; runs until killed.

    fake_server.py MODE PATH

    silent     never answers
    trickle    one byte every 4 s, never a line break
    endless    an answer that never ends (64 KiB writes, no line break)
    flood      line after line, as fast as the client reads
    controls   ESC, OSC, BEL, 8-bit CSI and a raw Pango tag in an answer, then closes
    blocks     i3bar blocks and waybar objects with extra fields and raw markup, then waits
    handover   "ok writing to the bar's output" (taking a bar's pipe), whether or not a
               descriptor came with the request, then waits
    link       a bar's one countdown block; to `url ...`, a URL with a right-to-left
               override (U+202E), then closes
    blanklink  the same with a Hangul filler (U+3164), which shows as a blank
    relay      the bytes of the file PATH.answer, then waits
    longerror  one ERR line of 30,000 bytes, then closes
"""
import os
import socket
import sys
import threading
import time

CONTROLS = (b"\x1b]0;pwned\x07\x1b[2J\x9b31mred\x1b[0m \xc2\x9b32m bell\x07 <b>bold</b>"
            b" \xe2\x80\xae reversed \x1b]52;c;cHduZWQ=\x07\n")
BLOCK = (b'{"name":"evil","instance":"x","full_text":"<span color=\\"red\\">x</span> \\u001b[2J",'
         b'"color":"#ff0000","markup":"pango","separator_block_width":900}\n')
HANDED_OVER = b"ok writing to the bar's output\n"
LINK_BLOCK = b'[{"name":"zaoan","instance":"0-countdown","full_text":"Meeting in 10 min"}]\n'
LINKS = {"link": "https://example.org/\u202egpj.exe\n".encode(),
         "blanklink": "https://example.org/\u3164/login\n".encode()}
WAYBAR = b'{"text":"<b>big</b> &bogus; \\u001b]0;t\\u0007","tooltip":"<i>t</i>","class":"x y;z","percentage":5}\n'


def serve(conn, mode):
    try:
        conn.settimeout(60)
        data = b""
        while b"\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
        if mode == "silent":
            time.sleep(60)
        elif mode == "trickle":
            for _ in range(15):
                conn.sendall(b"p")
                time.sleep(4)
        elif mode == "endless":
            chunk = b"x" * 65536
            while True:
                conn.sendall(chunk)
        elif mode == "flood":
            line = b"line " * 20 + b"\n"
            while True:
                conn.sendall(line * 100)
        elif mode == "controls":
            conn.sendall(CONTROLS)
        elif mode == "blocks":
            request = data.decode("utf-8", "replace")
            conn.sendall(WAYBAR if "json" in request else BLOCK)
            time.sleep(60)
        elif mode == "handover":
            conn.sendall(HANDED_OVER)
            time.sleep(60)
        elif mode == "relay":
            with open(sys.argv[2] + ".answer", "rb") as answer:
                conn.sendall(answer.read())
            time.sleep(60)
        elif mode == "longerror":
            conn.sendall(b"ERR " + b"x" * 30000 + b"\n")
        elif mode in LINKS:
            if data.startswith(b"url "):
                conn.sendall(LINKS[mode])
            else:
                conn.sendall(LINK_BLOCK)
                time.sleep(60)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    print("ready", flush=True)
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn, mode), daemon=True).start()


if __name__ == "__main__":
    main()
