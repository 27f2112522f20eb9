import torch
from torch.func import functional_call, grad, vmap


class PerSampleClipper:
    def __init__(self, model, loss_fn, max_grad_norm=1.0, noise_multiplier=0.8):
        self.model = model
        self.loss_fn = loss_fn
        self.max_grad_norm = max_grad_norm
        self.noise_multiplier = noise_multiplier

        def compute_loss(params, buffers, sample, target):
            batch = sample.unsqueeze(0)
            targets = target.unsqueeze(0)
            predictions = functional_call(self.model, (params, buffers), (batch,))
            return self.loss_fn(predictions, targets)

        self._per_sample_grads = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))

    def per_sample_grads(self, data, targets):
        params = {k: v.detach() for k, v in self.model.named_parameters() if v.requires_grad}
        buffers = {k: v.detach() for k, v in self.model.named_buffers()}
        return self._per_sample_grads(params, buffers, data, targets)

    def populate_grads(self, data, targets):
        grads = self.per_sample_grads(data, targets)
        bsz = data.size(0)
        flat = torch.cat([g.reshape(bsz, -1) for g in grads.values()], dim=1)
        norms = flat.norm(2, dim=1)
        factors = (self.max_grad_norm / (norms + 1e-6)).clamp(max=1.0)
        named = dict(self.model.named_parameters())
        for name, g in grads.items():
            clipped = torch.einsum("i,i...->...", factors, g)
            noise = torch.randn_like(clipped) * self.noise_multiplier * self.max_grad_norm
            named[name].grad = (clipped + noise) / bsz
        return norms
