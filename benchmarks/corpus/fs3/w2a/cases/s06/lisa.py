import numpy as np
from transformers import TrainerCallback


class DynamicLayerActivationCallback(TrainerCallback):
    def __init__(self, n_layers, interval_steps, model):
        super().__init__()
        self.n_layers = n_layers
        self.interval_steps = interval_steps
        self.model = model
        self.layers_attribute = "transformer.h"
        self.total_layers = len(eval("self.model." + self.layers_attribute))
        self.active_layers_indices = []
        self.freeze_all_layers()

    def freeze_all_layers(self):
        layers = eval("self.model." + self.layers_attribute)
        for layer in layers:
            for param in layer.parameters():
                param.requires_grad = False

    def on_step_begin(self, args, state, control, **kwargs):
        if state.global_step % self.interval_steps == 0:
            self.switch_active_layers()

    def switch_active_layers(self):
        self.freeze_all_layers()
        layers = eval("self.model." + self.layers_attribute)
        self.active_layers_indices = np.random.choice(range(self.total_layers), self.n_layers, replace=False)
        for idx in self.active_layers_indices:
            for param in layers[idx].parameters():
                param.requires_grad = True
