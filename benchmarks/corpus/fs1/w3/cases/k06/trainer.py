import torch
import torch.nn.functional as F


class MultiTaskTrainer:
    def __init__(self, model, optimizer, task_weights=(1.0, 0.5)):
        self.model = model
        self.optimizer = optimizer
        self.task_weights = task_weights
        self.history = []

    def _shared_grad(self):
        w = self.model.shared_layer().weight
        return torch.zeros_like(w) if w.grad is None else w.grad.detach().clone()

    def train_step(self, x, y_cls, y_reg):
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        logits, pred = self.model(x)
        cls_loss = self.task_weights[0] * F.cross_entropy(logits, y_cls)
        reg_loss = self.task_weights[1] * F.smooth_l1_loss(pred, y_reg)

        cls_loss.backward(retain_graph=True)
        g_cls = self._shared_grad()
        reg_loss.backward()
        g_reg = self._shared_grad() - g_cls

        self.optimizer.step()
        self.history.append({
            "cls": cls_loss.item(),
            "reg": reg_loss.item(),
            "grad_cos": F.cosine_similarity(g_cls.flatten(), g_reg.flatten(), dim=0).item(),
        })
        return self.history[-1]

    @torch.no_grad()
    def evaluate(self, x, y_cls, y_reg):
        self.model.eval()
        logits, pred = self.model(x)
        acc = (logits.argmax(-1) == y_cls).float().mean().item()
        mae = (pred - y_reg).abs().mean().item()
        return acc, mae
