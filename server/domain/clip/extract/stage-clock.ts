// Lets a caller (the extraction bench) see where extractArticle spends its time, stage by stage,
// without timers in the stages themselves; without a listener a lap costs nothing.

/** Called as each stage of extractArticle ends, with the stage's wall time. */
export type StageListener = (stage: string, milliseconds: number) => void;

/** Returns `lap(stage)`: reports the time since the previous lap (or the start) as `stage`. */
export function stageClock(listener: StageListener | undefined): (stage: string) => void {
  if (!listener) return () => {};
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    listener(stage, now - last);
    last = now;
  };
}
