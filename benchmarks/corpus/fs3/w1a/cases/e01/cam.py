"""Class activation maps for CNN classifiers."""
import torch
import torch.nn.functional as F


class ActivationsAndGradients:
    """Collects the activations and gradients of one target layer."""

    def __init__(self, model, target_layer):
        self.model = model
        self.activations = []
        self.gradients = []
        self.handles = []
        self.handles.append(target_layer.register_forward_hook(self.save_activation))
        self.handles.append(target_layer.register_full_backward_hook(self.save_gradient))

    def save_activation(self, module, inputs, output):
        self.activations.append(output.detach())

    def save_gradient(self, module, grad_input, grad_output):
        self.gradients = [grad_output[0].detach()] + self.gradients

    def __call__(self, x):
        self.gradients = []
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()


class GradCAM:
    def __init__(self, model, target_layer):
        self.model = model.eval()
        self.target_layer = target_layer
        self.activations_and_grads = ActivationsAndGradients(model, target_layer)

    @staticmethod
    def get_cam_weights(grads):
        return grads.mean(dim=(2, 3), keepdim=True)

    def __call__(self, input_tensor, targets=None):
        input_tensor = input_tensor.requires_grad_(True)
        outputs = self.activations_and_grads(input_tensor)
        if targets is None:
            targets = outputs.argmax(dim=1)
        self.model.zero_grad()
        score = outputs.gather(1, targets[:, None]).sum()
        score.backward()
        acts = self.activations_and_grads.activations[-1]
        grads = self.activations_and_grads.gradients[-1]
        cam = F.relu((self.get_cam_weights(grads) * acts).sum(dim=1))
        cam = F.interpolate(cam[:, None], size=input_tensor.shape[-2:],
                            mode="bilinear", align_corners=False)[:, 0]
        lo = cam.flatten(1).min(1)[0][:, None, None]
        hi = cam.flatten(1).max(1)[0][:, None, None]
        return (cam - lo) / (hi - lo + 1e-7)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.activations_and_grads.release()
        return False
