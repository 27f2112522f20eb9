from torch import nn

activations = {
    "ReLU": nn.ReLU,
    "LeakyReLU": nn.LeakyReLU,
    "ReLU6": nn.ReLU6,
    "SELU": nn.SELU,
    "ELU": nn.ELU,
    "GELU": nn.GELU,
    "Hardswish": nn.Hardswish,
    None: nn.Identity,
}


def act_layers(name):
    assert name in activations
    if name == "LeakyReLU":
        return nn.LeakyReLU(negative_slope=0.1, inplace=True)
    if name in ("GELU", "Hardswish", None):
        return activations[name]()
    return activations[name](inplace=True)


class ConvModule(nn.Module):
    """conv -> norm -> act"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 norm_cfg=None, activation="ReLU"):
        super().__init__()
        self.with_norm = norm_cfg is not None
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding,
                              bias=not self.with_norm)
        self.norm = nn.BatchNorm2d(out_channels) if self.with_norm else None
        self.act = act_layers(activation) if activation else None

    def forward(self, x):
        x = self.conv(x)
        if self.norm is not None:
            x = self.norm(x)
        if self.act is not None:
            x = self.act(x)
        return x
