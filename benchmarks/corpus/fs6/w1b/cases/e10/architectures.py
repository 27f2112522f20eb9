import torch.nn as nn


class ConvTrunk(nn.Module):
    def __init__(self, in_channels=3, widths=(16, 32, 64)):
        super().__init__()
        layers = []
        for w in widths:
            layers += [nn.Conv2d(in_channels, w, 3, padding=1), nn.BatchNorm2d(w),
                       nn.ReLU(), nn.MaxPool2d(2)]
            in_channels = w
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.out_dim = in_channels

    def forward(self, x):
        return self.pool(self.features(x)).flatten(1)


class MLP(nn.Module):
    # layer_sizes[0] is the dimension of the input
    # layer_sizes[-1] is the dimension of the output
    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        layer_list = []
        layer_sizes = [int(x) for x in layer_sizes]
        num_layers = len(layer_sizes) - 1
        final_relu_layer = num_layers if final_relu else num_layers - 1
        for i in range(len(layer_sizes) - 1):
            input_size = layer_sizes[i]
            curr_size = layer_sizes[i + 1]
            if i < final_relu_layer:
                layer_list.append(nn.ReLU(inplace=True))
            layer_list.append(nn.Linear(input_size, curr_size))
        self.net = nn.Sequential(*layer_list)
        self.last_linear = self.net[-1]

    def forward(self, x):
        return self.net(x)
