"""progress - the runner's line on the terminal: experiment k of n, the
boot, the step and its variant, time spent and an estimate of time left.

The estimate is the experiment files' guest-seconds per step, scaled by how
fast this machine has gone against them so far. On a terminal the line is
rewritten in place; into a file or pipe each step gets its own line.

Not for: anything that goes into the results.
"""
import sys
import time


def clock(seconds):
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    def __init__(self, estimate, stream=sys.stderr):
        self.estimate = estimate	# guest seconds of everything planned
        self.done = 0.0			# estimated seconds of what has finished
        self.start = time.monotonic()
        self.stream = stream
        self.tty = stream.isatty()

    def elapsed(self):
        return time.monotonic() - self.start

    def left(self):
        speed = self.elapsed() / self.done if self.done else 1.0
        return (self.estimate - self.done) * speed

    def advance(self, seconds):
        self.done += seconds

    def show(self, text):
        line = f"{text}  [{clock(self.elapsed())} elapsed, ~{clock(self.left())} left]"
        if self.tty:
            self.stream.write("\r\x1b[K" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def say(self, text):
        """A line that stays (a boot's outcome, a warning)."""
        self.stream.write(("\r\x1b[K" if self.tty else "") + text + "\n")
        self.stream.flush()
