import numpy as np
import torch
import torch.nn.functional as F

from model import DANN

n_epoch = 3
batch_size = 16
lr = 1e-3

torch.manual_seed(7)
np.random.seed(7)

source_x = torch.randn(96, 20)
source_y = (source_x[:, :3].argmax(dim=1))
target_x = torch.randn(96, 20) * 1.3 + 0.5

my_net = DANN()
optimizer = torch.optim.Adam(my_net.parameters(), lr=lr)

len_dataloader = len(source_x) // batch_size
for epoch in range(n_epoch):
    perm_s = torch.randperm(len(source_x))
    perm_t = torch.randperm(len(target_x))
    for i in range(len_dataloader):
        p = float(i + epoch * len_dataloader) / n_epoch / len_dataloader
        alpha = 2.0 / (1.0 + np.exp(-10 * p)) - 1

        idx_s = perm_s[i * batch_size:(i + 1) * batch_size]
        idx_t = perm_t[i * batch_size:(i + 1) * batch_size]
        s_img, s_label = source_x[idx_s], source_y[idx_s]
        t_img = target_x[idx_t]

        my_net.zero_grad()
        domain_label = torch.zeros(batch_size, dtype=torch.long)
        class_output, domain_output = my_net(s_img, alpha)
        err_s_label = F.cross_entropy(class_output, s_label)
        err_s_domain = F.cross_entropy(domain_output, domain_label)

        domain_label = torch.ones(batch_size, dtype=torch.long)
        _, domain_output = my_net(t_img, alpha)
        err_t_domain = F.cross_entropy(domain_output, domain_label)

        err = err_t_domain + err_s_domain + err_s_label
        err.backward()
        optimizer.step()

    with torch.no_grad():
        my_net.eval()
        acc = (my_net(source_x, 0.0)[0].argmax(1) == source_y).float().mean().item()
        my_net.train()
    print(f"epoch {epoch} alpha {alpha:.3f} err_s_label {err_s_label.item():.4f} "
          f"err_domain {(err_s_domain + err_t_domain).item():.4f} acc {acc:.3f}")
