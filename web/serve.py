#!/usr/bin/env python3
"""A static server for the demo page, with the two headers that make a page
cross-origin isolated (so that it has SharedArrayBuffer, which Chariot's
WebAssembly threads need):

    Cross-Origin-Opener-Policy: same-origin
    Cross-Origin-Embedder-Policy: require-corp

    python3 web/serve.py build-wasm/demo            # http://127.0.0.1:8000/
    python3 web/serve.py build-wasm/demo --port 0   # any free port (printed)

--no-isolation leaves the headers out (the page then runs the engine on one
thread, with the module without threads, chariot-st.js).
For local use only: it serves the folder to the loopback interface.
"""
import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    isolation = True
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html"}

    def end_headers(self):
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):  # quiet: the test reads stdout
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="the folder to serve (build-wasm/demo)")
    parser.add_argument("--port", type=int, default=8000, help="0: any free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--no-isolation", action="store_true", help="leave out COOP and COEP")
    args = parser.parse_args()
    Handler.isolation = not args.no_isolation
    handler = functools.partial(Handler, directory=args.folder)
    with http.server.ThreadingHTTPServer((args.host, args.port), handler) as server:
        print(f"serving {args.folder} at http://{args.host}:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
