import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureTaps:
    def __init__(self, model, layer_names):
        self.features = {}
        self.handles = []
        modules = dict(model.named_modules())
        for name in layer_names:
            self.handles.append(modules[name].register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output
        return hook

    def pop(self):
        feats, self.features = self.features, {}
        return feats

    def remove(self):
        for h in self.handles:
            h.remove()


class GradNormMonitor:
    def __init__(self, model, layer_names):
        self.norms = {name: [] for name in layer_names}
        modules = dict(model.named_modules())
        self.handles = [modules[n].register_full_backward_hook(self._make_hook(n))
                        for n in layer_names]

    def _make_hook(self, name):
        def hook(module, grad_input, grad_output):
            self.norms[name].append(grad_output[0].norm().item())
        return hook


class FeatureDistiller(nn.Module):
    def __init__(self, student, teacher, pairs, alpha, temperature, logit_clip):
        super().__init__()
        self.student, self.teacher = student, teacher
        self.pairs = {s: t for s, t, _, _ in pairs}
        self.adapters = nn.ModuleDict({
            s.replace(".", "_"): nn.Conv2d(c_s, c_t, 1) for s, _, c_s, c_t in pairs})
        self.alpha, self.temperature, self.logit_clip = alpha, temperature, logit_clip
        self.s_taps = FeatureTaps(student, list(self.pairs.keys()))
        self.t_taps = FeatureTaps(teacher, list(self.pairs.values()))
        for p in self.teacher.parameters():
            p.requires_grad_(False)

    def train(self, mode=True):
        super().train(mode)
        self.teacher.eval()
        return self

    def forward(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        t_feats = self.t_taps.pop()
        s_logits = self.student(x)
        s_feats = self.s_taps.pop()
        if self.training and self.logit_clip is not None:
            c = self.logit_clip
            s_logits.register_hook(lambda g: g.clamp(-c, c))
        feat_loss = sum(F.mse_loss(self.adapters[s.replace(".", "_")](s_feats[s]), t_feats[t])
                        for s, t in self.pairs.items())
        T = self.temperature
        kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                      reduction="batchmean") * T * T
        ce = F.cross_entropy(s_logits, y)
        return ce + self.alpha * kd + feat_loss, s_logits
