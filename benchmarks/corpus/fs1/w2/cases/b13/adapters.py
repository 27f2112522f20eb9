import torch.nn as nn


class ConvAdapter(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        self.down = nn.Conv2d(channels, channels // reduction, 1)
        self.act = nn.ReLU()
        self.up = nn.Conv2d(channels // reduction, channels, 1)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(self.act(self.down(x)))


class AdaptedStage(nn.Module):
    def __init__(self, stage, channels):
        super().__init__()
        self.stage = stage
        self.adapter = ConvAdapter(channels)

    def forward(self, x):
        return self.adapter(self.stage(x))


def add_adapters(backbone):
    for name, channels in (("layer1", 64), ("layer2", 128), ("layer3", 256), ("layer4", 512)):
        setattr(backbone, name, AdaptedStage(getattr(backbone, name), channels))
    return backbone


def adapter_parameters(model):
    return [p for n, p in model.named_parameters() if ".adapter." in n or n.startswith("fc.")]


def train_adapter(model):
    model.eval()
    for module in model.modules():
        if isinstance(module, ConvAdapter):
            module.train()
    model.fc.train()
