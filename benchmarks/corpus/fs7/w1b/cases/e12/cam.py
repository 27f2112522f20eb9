import numpy as np
import torch
import torch.nn.functional as F


class ActivationsAndGradients:
    """Class for extracting activations and registering gradients from targeted layers."""

    def __init__(self, model, target_layers, reshape_transform=None):
        self.model = model
        self.gradients = []
        self.activations = []
        self.reshape_transform = reshape_transform
        self.handles = []
        for target_layer in target_layers:
            self.handles.append(target_layer.register_forward_hook(self.save_activation))
            self.handles.append(target_layer.register_full_backward_hook(self.save_gradient))

    def save_activation(self, module, input, output):
        activation = output
        if self.reshape_transform is not None:
            activation = self.reshape_transform(activation)
        self.activations.append(activation.cpu().detach())

    def save_gradient(self, module, grad_input, grad_output):
        grad = grad_output[0]
        if self.reshape_transform is not None:
            grad = self.reshape_transform(grad)
        self.gradients = [grad.cpu().detach()] + self.gradients

    def __call__(self, x):
        self.gradients = []
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()


class ClassifierOutputTarget:
    def __init__(self, category):
        self.category = category

    def __call__(self, model_output):
        return model_output[..., self.category]


class GradCAM:
    def __init__(self, model, target_layers):
        self.model = model.eval()
        self.target_layers = target_layers
        self.activations_and_grads = ActivationsAndGradients(self.model, target_layers)

    @staticmethod
    def get_cam_weights(grads):
        return np.mean(grads, axis=(2, 3))

    def compute_cam_per_layer(self, input_tensor):
        activations_list = [a.numpy() for a in self.activations_and_grads.activations]
        grads_list = [g.numpy() for g in self.activations_and_grads.gradients]
        target_size = input_tensor.shape[-2:]
        cams = []
        for activations, grads in zip(activations_list, grads_list):
            weights = self.get_cam_weights(grads)
            cam = (weights[:, :, None, None] * activations).sum(axis=1)
            cam = np.maximum(cam, 0)
            cam = torch.from_numpy(cam)[:, None]
            cam = F.interpolate(cam, size=target_size, mode="bilinear", align_corners=False)
            cams.append(cam[:, 0].numpy())
        return cams

    def __call__(self, input_tensor, targets=None):
        input_tensor = input_tensor.requires_grad_(True)
        outputs = self.activations_and_grads(input_tensor)
        if targets is None:
            categories = np.argmax(outputs.cpu().data.numpy(), axis=-1)
            targets = [ClassifierOutputTarget(c) for c in categories]
        self.model.zero_grad()
        loss = sum(target(output) for target, output in zip(targets, outputs))
        loss.backward(retain_graph=True)
        cams = self.compute_cam_per_layer(input_tensor)
        cam = np.mean(np.stack(cams, axis=1), axis=1)
        cam = cam - cam.min(axis=(1, 2), keepdims=True)
        return cam / (cam.max(axis=(1, 2), keepdims=True) + 1e-7)
