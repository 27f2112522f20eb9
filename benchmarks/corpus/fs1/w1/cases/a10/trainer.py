import torch

from losses import ctc_loss, frame_cross_entropy


class MultiTaskTrainer:
    """CTC + frame CE, with task weights rebalanced from gradient norms on the shared encoder."""

    def __init__(self, model, lr=1e-3, alpha=0.5):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.alpha = alpha
        self.weights = torch.ones(2)

    def grad_norm(self, loss, shared):
        (g,) = torch.autograd.grad(loss, shared, retain_graph=True)
        return g.norm()

    def rebalance(self, losses, shared):
        norms = torch.stack([self.grad_norm(loss, shared) for loss in losses])
        target = norms.mean() / norms.clamp_min(1e-8)
        self.weights = (1 - self.alpha) * self.weights + self.alpha * target
        self.weights = self.weights * len(losses) / self.weights.sum()

    def step(self, batch):
        enc, ctc_log_probs, frame_logits = self.model(batch["feats"])
        l_ctc = ctc_loss(ctc_log_probs, batch["tokens"], batch["enc_lens"], batch["token_lens"])
        l_frame = frame_cross_entropy(frame_logits, batch["alignments"])
        self.rebalance([l_ctc, l_frame], enc)
        total = self.weights[0] * l_ctc + self.weights[1] * l_frame
        self.optimizer.zero_grad()
        total.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
        self.optimizer.step()
        return l_ctc.item(), l_frame.item()
