import numpy as np
import torch


def one_hot(x, num_classes, on_value=1.0, off_value=0.0):
    x = x.long().view(-1, 1)
    return torch.full((x.size(0), num_classes), off_value, device=x.device).scatter_(1, x, on_value)


def mixup_target(target, num_classes, lam=1.0, smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1.0 - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1.0 - lam)


def rand_bbox(img_shape, lam):
    H, W = img_shape[-2:]
    cut_rat = np.sqrt(1.0 - lam)
    cut_h, cut_w = int(H * cut_rat), int(W * cut_rat)
    cy, cx = np.random.randint(H), np.random.randint(W)
    y1, y2 = np.clip(cy - cut_h // 2, 0, H), np.clip(cy + cut_h // 2, 0, H)
    x1, x2 = np.clip(cx - cut_w // 2, 0, W), np.clip(cx + cut_w // 2, 0, W)
    return y1, y2, x1, x2


class Mixup:
    def __init__(self, mixup_alpha=0.8, cutmix_alpha=1.0, switch_prob=0.5, label_smoothing=0.1, num_classes=10):
        self.mixup_alpha = mixup_alpha
        self.cutmix_alpha = cutmix_alpha
        self.switch_prob = switch_prob
        self.label_smoothing = label_smoothing
        self.num_classes = num_classes

    def _params(self):
        use_cutmix = np.random.rand() < self.switch_prob
        alpha = self.cutmix_alpha if use_cutmix else self.mixup_alpha
        return float(np.random.beta(alpha, alpha)), use_cutmix

    def __call__(self, x, target):
        assert len(x) % 2 == 0, "Batch size should be even when using this"
        lam, use_cutmix = self._params()
        if use_cutmix:
            y1, y2, x1, x2 = rand_bbox(x.shape, lam)
            x[:, :, y1:y2, x1:x2] = x.flip(0)[:, :, y1:y2, x1:x2]
            lam = 1.0 - (y2 - y1) * (x2 - x1) / float(x.shape[-2] * x.shape[-1])
        else:
            x_flipped = x.flip(0).mul_(1.0 - lam)
            x.mul_(lam).add_(x_flipped)
        target = mixup_target(target, self.num_classes, lam, self.label_smoothing)
        return x, target
