import torch
import torch.nn as nn
import torch.nn.functional as F


class Mish(nn.Module):
    def forward(self, x):
        return x * torch.tanh(F.softplus(x))


norm_name = {"bn": nn.BatchNorm2d}
activate_name = {
    "relu": nn.ReLU,
    "leaky": nn.LeakyReLU,
    "linear": nn.Identity,
    "mish": Mish,
}


class Convolutional(nn.Module):
    def __init__(self, filters_in, filters_out, kernel_size, stride=1, norm="bn", activate="mish"):
        super().__init__()
        self.norm = norm
        self.activate = activate
        self.__conv = nn.Conv2d(filters_in, filters_out, kernel_size, stride,
                                kernel_size // 2, bias=not norm)
        if norm:
            self.__norm = norm_name[norm](num_features=filters_out)
        if activate:
            self.__activate = activate_name[activate]()

    def forward(self, x):
        x = self.__conv(x)
        if self.norm:
            x = self.__norm(x)
        if self.activate:
            x = self.__activate(x)
        return x
