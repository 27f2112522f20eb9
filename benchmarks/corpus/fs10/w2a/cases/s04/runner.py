import torch


class Callback:
    def on_batch_end(self, state):
        pass

    def on_epoch_end(self, state):
        pass


class AccuracyCallback(Callback):
    def on_batch_end(self, state):
        preds = state["logits"].argmax(dim=1)
        state["correct"] += (preds == state["targets"]).sum().item()
        state["seen"] += len(preds)

    def on_epoch_end(self, state):
        print(f"epoch {state['epoch']}: loss {state['loss']:.4f} "
              f"acc {state['correct'] / max(state['seen'], 1):.3f}")


class SupervisedRunner:
    def __init__(self, model, criterion, optimizer, callbacks=()):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.callbacks = list(callbacks)

    def _run_batch(self, state, images, targets):
        self.optimizer.zero_grad()
        logits = self.model(images)
        loss = self.criterion(logits, targets)
        loss.backward()
        self.optimizer.step()
        state.update(logits=logits.detach(), targets=targets, loss=loss.item())

    def train(self, loaders, num_epochs):
        for epoch in range(num_epochs):
            self.model.train()
            state = {"epoch": epoch, "correct": 0, "seen": 0}
            for images, targets in loaders["train"]:
                self._run_batch(state, images, targets)
                for cb in self.callbacks:
                    cb.on_batch_end(state)
            for cb in self.callbacks:
                cb.on_epoch_end(state)
