import compat  # noqa: F401
import timm
import torch.nn as nn


class TimmEncoder(nn.Module):
    def __init__(self, arch="resnet18", pretrained=False, frozen=False, pooling="avg"):
        super().__init__()
        self.encoder = timm.create_model(arch, pretrained=pretrained, num_classes=0,
                                         global_pool=pooling)
        self.out_features = self.encoder.num_features
        if frozen:
            self.encoder.requires_grad = False
            self.encoder.eval()

    def train(self, mode=True):
        super().train(mode)
        if getattr(self.encoder, "requires_grad", True) is False:
            self.encoder.eval()
        return self

    def forward(self, image):
        return self.encoder(image)


class EncoderHeadNet(nn.Module):
    def __init__(self, encoder_params, head_hiddens=(64,), num_classes=4, dropout=0.2):
        super().__init__()
        self.encoder_net = TimmEncoder(**encoder_params)
        layers, in_features = [], self.encoder_net.out_features
        for hidden in head_hiddens:
            layers += [nn.Linear(in_features, hidden), nn.ReLU(), nn.Dropout(dropout)]
            in_features = hidden
        layers.append(nn.Linear(in_features, num_classes))
        self.head_net = nn.Sequential(*layers)

    def forward(self, image):
        return self.head_net(self.encoder_net(image))
