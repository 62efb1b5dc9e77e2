// What a benchmark command stops on: a message for the reader and the exit code (2: bad usage or set-up).
export class BenchError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
