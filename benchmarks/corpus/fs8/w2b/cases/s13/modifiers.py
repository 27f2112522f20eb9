class TrainableParamsModifier:
    def __init__(self, model, params, trainable, start_step):
        self.model = model
        self.params = params
        self.trainable = trainable
        self.start_step = start_step
        self.applied = False

    def _targets(self):
        for name, param in self.model.named_parameters():
            if any(name.startswith(prefix) for prefix in self.params):
                yield name, param

    def update(self, step):
        if self.applied or step < self.start_step:
            return
        for name, param in self._targets():
            param.requires_grad = self.trainable
        self.applied = True


class ScheduledModifierManager:
    def __init__(self, modifiers):
        self.modifiers = modifiers
        self.step = 0

    def _on_step(self, optimizer, args, kwargs):
        for modifier in self.modifiers:
            modifier.update(self.step)
        self.step += 1

    def attach(self, optimizer):
        optimizer.register_step_pre_hook(self._on_step)
        return optimizer
