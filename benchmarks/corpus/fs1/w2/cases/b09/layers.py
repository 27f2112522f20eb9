import torch
import torch.nn as nn

_ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh, "gelu": nn.GELU}


def get_layer(hparams):
    kwargs = dict(hparams.get("kwargs", {}))
    if hparams["type"] == "Linear":
        return nn.Linear(**kwargs)
    if hparams["type"] == "Conv1d":
        return nn.Conv1d(**kwargs)
    if hparams["type"] in _ACTIVATIONS:
        return _ACTIVATIONS[hparams["type"]]()
    raise ValueError(f"unknown layer type {hparams['type']}")


class MergeLayer(nn.Module):
    """Applies several layers to the same input and merges their outputs."""

    def __init__(self, layers=None, mode="concat", dim=-1):
        super().__init__()
        self._mode = mode
        self._dim = dim
        self._layers = None
        if layers is not None:
            self._layers = []
            for layer in layers:
                if isinstance(layer, nn.Module):
                    self._layers.append(layer)
                else:
                    self._layers.append(get_layer(layer))

    def forward(self, inputs):
        if self._layers is None:
            outputs = inputs if isinstance(inputs, (list, tuple)) else [inputs]
        else:
            outputs = [layer(inputs) for layer in self._layers]
        if self._mode == "concat":
            return torch.cat(outputs, dim=self._dim)
        if self._mode == "sum":
            return torch.stack(outputs, dim=0).sum(dim=0)
        if self._mode == "mean":
            return torch.stack(outputs, dim=0).mean(dim=0)
        raise ValueError(f"unknown merge mode {self._mode}")
