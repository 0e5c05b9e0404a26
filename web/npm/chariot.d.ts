// Chariot, a xiangqi engine in WebAssembly: the API of chariot.js.

declare namespace Chariot {
  /** A running engine. Lines in and lines out, as on the native engine's stdin and stdout. */
  interface Engine {
    /** Sends one command line (UCCI, UCI after `uci`, xboard after `xboard`). */
    postMessage(command: string): void;
    /** `listener` gets every line the engine writes, without the newline. */
    addMessageListener(listener: (line: string) => void): void;
    removeMessageListener(listener: (line: string) => void): void;
    /** The end of input, as when a GUI closes the pipe: the engine answers what it was given, then ends. */
    closeInput(): void;
    /** Ends the engine and its threads at once; no line comes after. */
    terminate(): void;
    /** The engine's exit code once it has ended by itself (`quit`, closeInput), or null after terminate(). */
    readonly exited: Promise<number | null>;
  }

  /** Emscripten's module options, for pages that serve chariot.js and chariot.worker.js elsewhere. */
  interface Options {
    /** Where a file the module loads (chariot.worker.js) lies: `prefix` is the folder of chariot.js. */
    locateFile?: (path: string, prefix: string) => string;
    /** chariot.js itself, which every thread loads (its URL, or a Blob of it). */
    mainScriptUrlOrBlob?: string | Blob;
    /** Where the module's own diagnostics go (default: the console). */
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }
}

/**
 * Starts an engine. It needs SharedArrayBuffer: Node, or a page (and its Web
 * Workers) served with `Cross-Origin-Opener-Policy: same-origin` and
 * `Cross-Origin-Embedder-Policy: require-corp`; elsewhere the promise rejects.
 */
declare function Chariot(options?: Chariot.Options): Promise<Chariot.Engine>;

export = Chariot;
