import argparse

import torch
from torch import optim

from meta_optimizer import MetaOptimizer

parser = argparse.ArgumentParser(description="learning to learn by gradient descent")
parser.add_argument("--batch_size", type=int, default=32)
parser.add_argument("--optimizer_steps", type=int, default=10)
parser.add_argument("--truncated_bptt_step", type=int, default=5)
parser.add_argument("--updates_per_epoch", type=int, default=3)
parser.add_argument("--max_epoch", type=int, default=2)
parser.add_argument("--hidden_size", type=int, default=10)
parser.add_argument("--num_layers", type=int, default=2)
args = parser.parse_args()

IN_DIM = 6


def optimizee_loss(flat_params, x, y):
    w, b = flat_params[:IN_DIM], flat_params[IN_DIM]
    return ((x @ w + b - y) ** 2).mean()


def sample_task(gen):
    true_w = torch.randn(IN_DIM, generator=gen)
    x = torch.randn(args.batch_size, IN_DIM, generator=gen)
    y = x @ true_w + 0.1 * torch.randn(args.batch_size, generator=gen)
    return x, y


torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
meta_optimizer = MetaOptimizer(IN_DIM + 1, args.num_layers, args.hidden_size)
optimizer = optim.Adam(meta_optimizer.parameters(), lr=1e-3)

for epoch in range(args.max_epoch):
    decrease_in_loss = 0.0
    final_loss = 0.0
    for i in range(args.updates_per_epoch):
        x, y = sample_task(gen)
        flat_params = torch.zeros(IN_DIM + 1)
        initial_loss = optimizee_loss(flat_params, x, y).item()

        for k in range(args.optimizer_steps // args.truncated_bptt_step):
            meta_optimizer.reset_lstm()
            flat_params = flat_params.detach().requires_grad_(True)
            loss_sum = 0
            for j in range(args.truncated_bptt_step):
                loss = optimizee_loss(flat_params, x, y)
                grads, = torch.autograd.grad(loss, flat_params, create_graph=False)
                flat_params = meta_optimizer.meta_update(flat_params, grads.detach())
                loss_sum = loss_sum + optimizee_loss(flat_params, x, y)

            optimizer.zero_grad()
            loss_sum.backward()
            optimizer.step()

        final = optimizee_loss(flat_params, x, y).item()
        decrease_in_loss += final / initial_loss
        final_loss += final
    print(f"Epoch: {epoch}, final loss {final_loss / args.updates_per_epoch:.4f}, "
          f"average final/initial loss ratio: {decrease_in_loss / args.updates_per_epoch:.4f}")
