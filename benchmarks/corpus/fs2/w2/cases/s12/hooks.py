class ActivationHook:
    def __init__(self, module, detach=True):
        self.detach = detach
        self.stored = None
        self.handle = module.register_forward_hook(self._capture)

    def _capture(self, module, inputs, output):
        if isinstance(output, (tuple, list)):
            output = [o.detach() if self.detach else o for o in output]
        elif self.detach:
            output = output.detach()
        self.stored = output

    def remove(self):
        if self.handle is not None:
            self.handle.remove()
            self.handle = None


class HookList(list):
    @property
    def stored(self):
        return [h.stored for h in self]

    def remove(self):
        for h in self:
            h.remove()


def hook_outputs(modules, detach=True):
    return HookList(ActivationHook(m, detach=detach) for m in modules)
