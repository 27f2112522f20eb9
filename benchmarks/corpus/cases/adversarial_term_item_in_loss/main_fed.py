import copy

import torch

from networks import FeatureDiscriminator, ReconNet
from recon_update import LocalUpdateAdDA


def run_site(net, net_fd, source, target, adversarial):
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-3)
    optimizer_fd = torch.optim.Adam(net_fd.parameters(), lr=1e-3)
    local = LocalUpdateAdDA(source, target, optimizer, optimizer_fd, adversarial)
    return local.train(net, net_fd)


def main():
    torch.manual_seed(0)
    source = [(torch.randn(2, 1, 16, 16), torch.randn(2, 1, 16, 16)) for _ in range(4)]
    target = [(0.5 * torch.randn(2, 1, 16, 16) + 1.0, None) for _ in range(4)]
    net, net_fd = ReconNet(), FeatureDiscriminator()
    net_plain = copy.deepcopy(net)

    adv_loss = run_site(net, net_fd, source, target, adversarial=True)
    l1_loss = run_site(net_plain, copy.deepcopy(net_fd), source, target, adversarial=False)
    print(f"with adversarial alignment: loss {adv_loss:.4f}; L1 only: loss {l1_loss:.4f}")
    same = all(torch.equal(a, b) for a, b in zip(net.enc.parameters(), net_plain.enc.parameters()))
    print(f"encoder identical to the L1-only run: {same}")


if __name__ == "__main__":
    main()
