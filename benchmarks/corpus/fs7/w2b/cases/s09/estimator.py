import copy

import numpy as np
import torch
import torch.nn as nn


class PyTorchClassifier:
    def __init__(self, model, loss, optimizer, input_shape, nb_classes, device="cpu"):
        self.model = model.to(device)
        self._loss = loss
        self._optimizer = optimizer
        self.input_shape = input_shape
        self.nb_classes = nb_classes
        self._device = torch.device(device)

    def get_params(self):
        return {
            "loss": self._loss,
            "optimizer": self._optimizer,
            "input_shape": self.input_shape,
            "nb_classes": self.nb_classes,
            "device": str(self._device),
        }

    def fit(self, x, y, batch_size=16, nb_epochs=1):
        self.model.train()
        n = x.shape[0]
        num_batch = int(np.ceil(n / float(batch_size)))
        ind = np.arange(n)
        for _ in range(nb_epochs):
            np.random.shuffle(ind)
            for m in range(num_batch):
                idx = ind[m * batch_size:(m + 1) * batch_size]
                i_batch = torch.from_numpy(x[idx]).to(self._device)
                o_batch = torch.from_numpy(y[idx]).to(self._device)
                self._optimizer.zero_grad()
                outputs = self.model(i_batch)
                loss = self._loss(outputs, o_batch)
                loss.backward()
                self._optimizer.step()

    def predict(self, x, batch_size=32):
        self.model.eval()
        out = []
        with torch.no_grad():
            for i in range(0, x.shape[0], batch_size):
                out.append(self.model(torch.from_numpy(x[i:i + batch_size])).softmax(1))
        return torch.cat(out).numpy()

    def reset(self):
        def weight_reset(module):
            if isinstance(module, (nn.Conv2d, nn.Linear, nn.BatchNorm2d)):
                module.reset_parameters()

        self.model.apply(weight_reset)

    def clone_for_refitting(self):
        model = copy.deepcopy(self.model)
        params = self.get_params()
        clone = type(self)(model=model, **params)
        clone.reset()
        return clone
