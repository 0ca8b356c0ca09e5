// Answers that arrive out of order: only the answer to the newest question is kept. Used by the
// forum search, so an earlier query's late answer never replaces a newer one.

export interface LatestOnly {
  /** Starts a question; `apply` runs with its answer only if no newer question was started since. */
  run<T>(question: Promise<T>, apply: (answer: T) => void, onError?: (error: unknown) => void): void;
  /** Drops whatever is still in flight (a later answer to it is ignored). */
  cancel(): void;
}

export function latestOnly(): LatestOnly {
  let generation = 0;
  return {
    run(question, apply, onError) {
      generation += 1;
      const mine = generation;
      question.then(
        (answer) => {
          if (mine === generation) apply(answer);
        },
        (error: unknown) => {
          if (mine === generation) onError?.(error);
        },
      );
    },
    cancel() {
      generation += 1;
    },
  };
}
