import torch
import torch.nn.functional as F

from model import SNLINet

options = {"vocab": 100, "n_hid": 32, "n_layers": 2, "act": "Tanh"}


def main():
    torch.manual_seed(0)
    model = SNLINet(options)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    first_hidden = model.hids[0][0].weight.detach().clone()
    for step in range(10):
        premise = torch.randint(0, 100, (16, 7))
        hypothesis = torch.randint(0, 100, (16, 5))
        label = torch.randint(0, 3, (16,))
        loss = F.cross_entropy(model(premise, hypothesis), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    n_params = sum(p.numel() for p in model.parameters())
    changed = not torch.equal(first_hidden, model.hids[0][0].weight)
    print(f"final loss {loss.item():.4f}; parameters seen by optimizer: {n_params}; "
          f"hidden layer 0 changed: {changed}")


if __name__ == "__main__":
    main()
