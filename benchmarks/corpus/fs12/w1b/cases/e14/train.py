import torch
import torch.nn.functional as F

from meta_utils import gradient_update_parameters
from model import MetaMLP

ARGS = {
    "in_dim": 16, "hidden": 32, "n_way": 5, "k_shot": 5, "n_query": 10,
    "meta_batch": 4, "inner_steps": 3, "inner_lr": 0.4, "outer_lr": 1e-3,
    "first_order": True, "iterations": 3,
}


def sample_task(args):
    protos = torch.randn(args["n_way"], args["in_dim"]) * 2
    def draw(n):
        y = torch.arange(args["n_way"]).repeat_interleave(n)
        x = protos[y] + 0.5 * torch.randn(len(y), args["in_dim"])
        return x, y
    return draw(args["k_shot"]), draw(args["n_query"])


class MAMLLearner:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.meta_optimizer = torch.optim.Adam(model.parameters(), lr=args["outer_lr"])
        self.inner_kwargs = {"step_size": args["inner_lr"], "first_order": args["first_order"]}

    def adapt(self, support_x, support_y):
        params = None
        inner_loss = F.cross_entropy(self.model(support_x, params=params), support_y)
        for _ in range(self.args["inner_steps"]):
            params = gradient_update_parameters(self.model, inner_loss, **self.inner_kwargs)
        return params

    def outer_step(self):
        self.meta_optimizer.zero_grad()
        outer_loss, acc = 0.0, 0.0
        for _ in range(self.args["meta_batch"]):
            (sx, sy), (qx, qy) = sample_task(self.args)
            params = self.adapt(sx, sy)
            logits = self.model(qx, params=params)
            outer_loss = outer_loss + F.cross_entropy(logits, qy)
            acc += (logits.argmax(-1) == qy).float().mean().item()
        outer_loss = outer_loss / self.args["meta_batch"]
        outer_loss.backward()
        self.meta_optimizer.step()
        return outer_loss.item(), acc / self.args["meta_batch"]


def main():
    torch.manual_seed(0)
    learner = MAMLLearner(MetaMLP(ARGS["in_dim"], ARGS["hidden"], ARGS["n_way"]), ARGS)
    for it in range(ARGS["iterations"]):
        loss, acc = learner.outer_step()
        print(f"iter {it} meta_loss={loss:.4f} query_acc={acc:.3f}")


if __name__ == "__main__":
    main()
