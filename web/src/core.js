// The page's side of a worker: each call is a promise of the worker's answer.

// The core's WebAssembly, compiled once for every worker (a worker cannot share its own).
export const compiled = WebAssembly.compileStreaming(fetch(new URL("./sudoku_web_bg.wasm", import.meta.url))).catch(
  () => null, // the worker fetches it itself, and says why if that fails too
);

// The worker starts at the first call: starting one costs the machine a core for a while.
export class Core {
  constructor() {
    this.worker = null;
    this.pending = new Map();
    this.next = 0;
  }

  start() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    compiled.then((module) => this.worker.postMessage({ module }));
    this.worker.onmessage = ({ data: { id, result, error } }) => {
      const call = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) call.reject(new Error(error));
      else call.resolve(result);
    };
  }

  // Whether no call waits for its answer.
  get idle() {
    return this.pending.size === 0;
  }

  // Stop the worker at once, whatever it is doing; calls waiting for an answer fail.
  terminate() {
    this.worker?.terminate();
    for (const call of this.pending.values()) call.reject(new Error("stopped"));
    this.pending.clear();
  }

  call(method, ...args) {
    if (this.worker === null) this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args });
    });
  }
}
