import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureRecorder:
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

    def clear(self):
        self.features = {}

    def remove(self):
        for h in self.handles:
            h.remove()
        self.handles = []


class HintLoss(nn.Module):
    def __init__(self, pairs):
        super().__init__()
        self.regressors = nn.ModuleDict({
            s_name.replace(".", "_"): nn.Conv2d(s_c, t_c, 1, bias=False)
            for (s_name, s_c), (t_name, t_c) in pairs
        })
        self.pairs = [(s_name, t_name) for (s_name, _), (t_name, _) in pairs]

    def forward(self, s_feats, t_feats):
        loss = 0.0
        for s_name, t_name in self.pairs:
            pred = self.regressors[s_name.replace(".", "_")](s_feats[s_name])
            loss = loss + F.mse_loss(pred, t_feats[t_name])
        return loss / len(self.pairs)


def kd_loss(student_logits, teacher_logits, T):
    return F.kl_div(F.log_softmax(student_logits / T, dim=1),
                    F.softmax(teacher_logits / T, dim=1), reduction="batchmean") * T * T
