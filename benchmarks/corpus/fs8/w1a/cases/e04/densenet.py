import torch
import torch.nn.functional as F
from torch import nn

from checkpoint import checkpoint


def _bn_function_factory(norm, relu, conv):
    def bn_function(*inputs):
        concated = torch.cat(inputs, 1)
        return conv(relu(norm(concated)))
    return bn_function


class DenseLayer(nn.Module):
    def __init__(self, num_input_features, growth_rate, bn_size, drop_rate, efficient=False):
        super().__init__()
        self.norm1 = nn.BatchNorm2d(num_input_features)
        self.relu1 = nn.ReLU()
        self.conv1 = nn.Conv2d(num_input_features, bn_size * growth_rate, 1, bias=False)
        self.norm2 = nn.BatchNorm2d(bn_size * growth_rate)
        self.relu2 = nn.ReLU()
        self.conv2 = nn.Conv2d(bn_size * growth_rate, growth_rate, 3, padding=1, bias=False)
        self.drop_rate = drop_rate
        self.efficient = efficient

    def forward(self, *prev_features):
        bn_function = _bn_function_factory(self.norm1, self.relu1, self.conv1)
        if self.efficient and any(f.requires_grad for f in prev_features):
            bottleneck = checkpoint(bn_function, *prev_features)
        else:
            bottleneck = bn_function(*prev_features)
        new_features = self.conv2(self.relu2(self.norm2(bottleneck)))
        if self.drop_rate > 0:
            new_features = F.dropout(new_features, p=self.drop_rate, training=self.training)
        return new_features


class DenseBlock(nn.Module):
    def __init__(self, num_layers, num_input_features, bn_size, growth_rate, drop_rate, efficient):
        super().__init__()
        self.layers = nn.ModuleList(
            DenseLayer(num_input_features + i * growth_rate, growth_rate, bn_size, drop_rate, efficient)
            for i in range(num_layers)
        )

    def forward(self, init_features):
        features = [init_features]
        for layer in self.layers:
            features.append(layer(*features))
        return torch.cat(features, 1)


class Transition(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, cout, 1, bias=False),
                         nn.AvgPool2d(2))


class DenseNet(nn.Module):
    def __init__(self, growth_rate=12, block_config=(4, 4), compression=0.5, num_init_features=24,
                 bn_size=4, drop_rate=0.0, num_classes=10, efficient=False):
        super().__init__()
        self.stem = nn.Conv2d(3, num_init_features, 3, padding=1, bias=False)
        blocks, nf = [], num_init_features
        for i, n in enumerate(block_config):
            blocks.append(DenseBlock(n, nf, bn_size, growth_rate, drop_rate, efficient))
            nf = nf + n * growth_rate
            if i != len(block_config) - 1:
                out = int(nf * compression)
                blocks.append(Transition(nf, out))
                nf = out
        self.blocks = nn.Sequential(*blocks)
        self.norm_final = nn.BatchNorm2d(nf)
        self.classifier = nn.Linear(nf, num_classes)

    def forward(self, x):
        out = F.relu(self.norm_final(self.blocks(self.stem(x))))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.classifier(out)
