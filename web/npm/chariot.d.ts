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
    /** True for the module with threads (chariot.js); false for the one without (chariot-st.js), where `Threads` stays 1. */
    readonly threaded: boolean;
  }

  /** Emscripten's module options, for pages that serve chariot.js and chariot.worker.js elsewhere. */
  interface Options {
    /**
     * Which module runs the engine. "auto" (the default): the one with threads where there is
     * SharedArrayBuffer (Node; a cross-origin-isolated page), else the one without, chariot-st.js,
     * loaded from beside chariot.js. "single": always the one without threads. "multi": the one with
     * threads, or the promise rejects.
     */
    threads?: "auto" | "single" | "multi";
    /** Where a file the module loads (chariot.worker.js, chariot-st.js) lies: `prefix` is the folder of chariot.js. */
    locateFile?: (path: string, prefix: string) => string;
    /** chariot.js itself, which every thread loads (its URL, or a Blob of it). */
    mainScriptUrlOrBlob?: string | Blob;
    /** Where the module's own diagnostics go (default: the console). */
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }
}

/**
 * Starts an engine. Its threads need SharedArrayBuffer: Node, or a page (and
 * its Web Workers) served with `Cross-Origin-Opener-Policy: same-origin` and
 * `Cross-Origin-Embedder-Policy: require-corp`; elsewhere it runs on one
 * thread (chariot-st.js), unless `threads: "multi"` asks for threads.
 */
declare function Chariot(options?: Chariot.Options): Promise<Chariot.Engine>;

export = Chariot;
