/**
 * Steps per second and frame time over a sliding half-second window, from the moments the GPU
 * finished each frame (so they measure the GPU, not how fast JavaScript queued work).
 */
export class FrameMeter {
  private windowStart = performance.now();
  private steps = 0;
  private frames = 0;
  private busyMs = 0;
  /** Steps per second over the last full window. */
  stepsPerSecond = 0;
  /** Mean time from submit to completion of a frame over the last full window, in ms. */
  frameMs = 0;

  /** Records a frame of `steps` steps that took `ms` from submit to done; true when the numbers changed. */
  record(steps: number, ms: number): boolean {
    this.steps += steps;
    this.frames++;
    this.busyMs += ms;
    const now = performance.now();
    const elapsed = now - this.windowStart;
    if (elapsed < 500) return false;
    this.stepsPerSecond = (this.steps * 1000) / elapsed;
    this.frameMs = this.busyMs / this.frames;
    this.windowStart = now;
    this.steps = 0;
    this.frames = 0;
    this.busyMs = 0;
    return true;
  }
}
