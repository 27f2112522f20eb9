import torch
import torch.nn as nn


class LocalUpdateAdDA:
    def __init__(self, source_batches, target_batches, optimizer, optimizer_fd, adversarial=True):
        self.loss_func = nn.L1Loss()
        self.adv_loss = nn.BCEWithLogitsLoss()
        self.source, self.target = source_batches, target_batches
        self.optimizer, self.optimizer_fd = optimizer, optimizer_fd
        self.adversarial = adversarial

    def set_requires_grad(self, net, requires_grad):
        for param in net.parameters():
            param.requires_grad = requires_grad

    def train(self, net, net_fd, local_ep=2):
        batch_loss = []
        for _ in range(local_ep):
            for (inp, target), (inp_t, _) in zip(self.source, self.target):
                net.zero_grad()
                net_fd.zero_grad()
                output, z = net(inp)
                output_t, z_t = net(inp_t)
                src_code = torch.tensor([[1.0, 0.0]]).repeat(inp.shape[0], 1)
                tgt_code = torch.tensor([[0.0, 1.0]]).repeat(inp_t.shape[0], 1)

                loss_adv_g = 0.0
                if self.adversarial:
                    # update the feature discriminator
                    self.set_requires_grad(net_fd, True)
                    df_loss = (self.adv_loss(net_fd(z.detach()), 1 - src_code)
                               + self.adv_loss(net_fd(z_t.detach()), 1 - tgt_code)) / 2
                    df_loss.backward()
                    self.optimizer_fd.step()
                    # adversarial loss for the reconstruction net
                    self.set_requires_grad(net_fd, False)
                    df_loss_src = self.adv_loss(net_fd(z), src_code)
                    df_loss_tgt = self.adv_loss(net_fd(z_t), tgt_code)
                    loss_adv_g = ((df_loss_src + df_loss_tgt) / 2).detach().item()

                L1_loss = self.loss_func(output, target)
                loss = L1_loss + loss_adv_g
                loss.backward()
                self.optimizer.step()
                batch_loss.append(loss.item())
        return sum(batch_loss) / len(batch_loss)
