import torch
import torch.nn as nn
import torch.nn.functional as F


class ChannelWiseDivergence(nn.Module):
    def __init__(self, tau=1.0):
        super().__init__()
        self.tau = tau

    def forward(self, s, t):
        n, c, h, w = s.shape
        s = s.reshape(n * c, h * w) / self.tau
        t = t.reshape(n * c, h * w) / self.tau
        loss = F.kl_div(F.log_softmax(s, dim=1), F.softmax(t, dim=1), reduction="batchmean")
        return loss * self.tau ** 2


class FeatureDistiller:
    def __init__(self, student, teacher, layer_names, channels_s, channels_t):
        self.student = student
        self.teacher = teacher
        self.layer_names = layer_names
        self.align = nn.ModuleList([nn.Conv2d(cs, ct, 1) for cs, ct in zip(channels_s, channels_t)])
        self.criterion = ChannelWiseDivergence(tau=1.0)
        self.student_feats, self.teacher_feats = {}, {}
        self.handles = []

    def register_hooks(self):
        def make_hook(store, name):
            def hook(module, inputs, output):
                store[name] = output
            return hook

        for name in self.layer_names:
            s_mod = dict(self.student.named_modules())[name]
            t_mod = dict(self.teacher.named_modules())[name]
            self.handles.append(s_mod.register_forward_hook(make_hook(self.student_feats, name)))
            self.handles.append(t_mod.register_forward_hook(make_hook(self.teacher_feats, name)))

    def loss(self):
        total = 0.0
        for i, name in enumerate(self.layer_names):
            s = self.align[i](self.student_feats[name])
            t = self.teacher_feats[name]
            total = total + self.criterion(s, t)
        return total

    def remove_hooks(self):
        for h in self.handles:
            h.remove()


def build_optimizer(model, teacher, distiller, lr=0.01, momentum=0.9, decay=5e-4):
    g_bn, g_weight, g_bias = [], [], []
    for module in list(model.modules()) + list(teacher.modules()) + list(distiller.align.modules()):
        if hasattr(module, "bias") and isinstance(module.bias, nn.Parameter):
            g_bias.append(module.bias)
        if isinstance(module, nn.BatchNorm2d):
            g_bn.append(module.weight)
        elif hasattr(module, "weight") and isinstance(module.weight, nn.Parameter):
            g_weight.append(module.weight)
    optimizer = torch.optim.SGD(g_bn, lr=lr, momentum=momentum, nesterov=True)
    optimizer.add_param_group({"params": g_weight, "weight_decay": decay})
    optimizer.add_param_group({"params": g_bias})
    return optimizer
