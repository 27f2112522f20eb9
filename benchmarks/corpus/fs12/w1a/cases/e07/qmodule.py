import torch.nn as nn

from qfunc import QLinearFunction


class QLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, bits=8):
        super().__init__(in_features, out_features, bias)
        self.bits = bits

    def forward(self, input):
        if self.training:
            return QLinearFunction.apply(input, self.weight, self.bias, self.bits)
        return super().forward(input)


class QModule(nn.Module):
    def __init__(self, model, bits=8):
        super().__init__()
        self.model = model
        self.bits = bits
        self.convert_layers(self.model)

    def convert_layers(self, module):
        for name, child in module.named_children():
            if isinstance(child, nn.Linear) and not isinstance(child, QLinear):
                q = QLinear(child.in_features, child.out_features, child.bias is not None, self.bits)
                q.weight = child.weight
                q.bias = child.bias
                setattr(module, name, q)
            else:
                self.convert_layers(child)

    def forward(self, *args, **kwargs):
        return self.model(*args, **kwargs)
