import torch
import torch.nn.functional as F


class ScoreCAM:
    """Score-CAM: weights each activation map of the target layer by the class score it induces."""

    def __init__(self, model, target_layer, batch_size=32):
        self.model = model
        self.batch_size = batch_size
        self.activations = None
        target_layer.register_forward_hook(self._save)

    def _save(self, module, inputs, output):
        self.activations = output.detach()

    def __call__(self, input_, class_idx=None):
        b, c, h, w = input_.shape
        with torch.no_grad():
            logits = self.model(input_)
            if class_idx is None:
                class_idx = logits.argmax(dim=1).item()
            maps = F.interpolate(self.activations, size=(h, w), mode="bilinear",
                                 align_corners=False)[0]
            lo = maps.flatten(1).min(1)[0].view(-1, 1, 1)
            hi = maps.flatten(1).max(1)[0].view(-1, 1, 1)
            norm_maps = (maps - lo) / (hi - lo + 1e-7)
            scores = []
            for i in range(0, norm_maps.shape[0], self.batch_size):
                masked = input_ * norm_maps[i:i + self.batch_size, None]
                scores.append(F.softmax(self.model(masked), dim=1)[:, class_idx])
            weights = torch.cat(scores)
            cam = F.relu((weights.view(-1, 1, 1) * maps).sum(0))
        return cam, class_idx


def vanilla_gradient(model, input_, class_idx):
    input_.requires_grad_(True)
    model.zero_grad(set_to_none=True)
    score = model(input_)[0, class_idx]
    score.backward()
    return input_.grad.abs().amax(dim=1)[0]
