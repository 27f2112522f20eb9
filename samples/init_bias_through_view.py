"""An output layer's bias is initialised through a view of it (`b = conv.bias.view(3, -1)`) and
then written in place twice: autograd refuses an in-place change of a view of a leaf that
requires grad."""
import math

import torch.nn as nn


class DetectHead(nn.Module):
    def __init__(self, anchors=3, outputs=6):
        super().__init__()
        self.anchors = anchors
        self.conv = nn.Conv2d(8, anchors * outputs, 1)
        self._init_bias()

    def _init_bias(self):
        b = self.conv.bias.view(self.anchors, -1)
        b[:, 4] += math.log(8 / 640)
        b[:, 5:] += math.log(0.6 / 0.99)


head = DetectHead()
print(head)
