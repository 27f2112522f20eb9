from collections import defaultdict


class State:
    def __init__(self):
        self.iteration = 0
        self.epoch = 0
        self.output = None


class Engine:
    def __init__(self, process_function):
        self._process_function = process_function
        self._handlers = defaultdict(list)
        self.state = State()

    def on(self, event, every=1):
        def decorator(fn):
            self._handlers[event].append((fn, every))
            return fn
        return decorator

    def _fire(self, event, counter):
        for fn, every in self._handlers[event]:
            if counter % every == 0:
                fn(self)

    def run(self, data, max_epochs=1):
        for _ in range(max_epochs):
            self.state.epoch += 1
            for batch in data:
                self.state.iteration += 1
                self.state.output = self._process_function(self, batch)
                self._fire("iteration_completed", self.state.iteration)
            self._fire("epoch_completed", self.state.epoch)
        return self.state
