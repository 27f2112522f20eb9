import torch
import torch.nn as nn
import torch.nn.functional as F


class GAIN(nn.Module):
    def __init__(self, backbone, grad_layer, num_classes, sigma=0.5, omega=10.0):
        super().__init__()
        self.model = backbone
        self.num_classes = num_classes
        self.sigma = sigma
        self.omega = omega
        self.feed_forward_features = None
        self.backward_features = None
        self._register_hooks(grad_layer)

    def _register_hooks(self, grad_layer):
        def forward_hook(module, inputs, output):
            self.feed_forward_features = output

        def backward_hook(module, grad_input, grad_output):
            self.backward_features = grad_output[0]

        layer = dict(self.model.named_modules())[grad_layer]
        layer.register_forward_hook(forward_hook)
        layer.register_full_backward_hook(backward_hook)

    def _to_ohe(self, labels):
        return F.one_hot(labels, self.num_classes).float()

    def forward(self, images, labels):
        with torch.enable_grad():
            _, _, img_h, img_w = images.size()
            self.model.train(True)
            logits = self.model(images)
            self.model.zero_grad()

            labels_ohe = self._to_ohe(labels).to(logits.device)
            gradient = logits * labels_ohe
            grad_logits = (logits * labels_ohe).sum()
            grad_logits.backward(gradient=gradient, retain_graph=True)
            self.model.zero_grad()

        backward_features = self.backward_features
        fl = self.feed_forward_features
        weights = F.adaptive_avg_pool2d(F.relu(backward_features), 1)
        ac = (fl * weights).sum(dim=1, keepdim=True)
        ac = F.relu(ac)
        ac = F.interpolate(ac, size=(img_h, img_w), mode="bilinear", align_corners=False)
        heatmap = ac

        ac_min = ac.flatten(1).min(dim=1)[0].view(-1, 1, 1, 1)
        ac_max = ac.flatten(1).max(dim=1)[0].view(-1, 1, 1, 1)
        scaled_ac = (ac - ac_min) / (ac_max - ac_min + 1e-8)
        mask = torch.sigmoid(self.omega * (scaled_ac - self.sigma))
        masked_image = images - images * mask

        logits_am = self.model(masked_image)
        return logits, logits_am, heatmap
