"""Training with the minimax association-discrepancy objective."""
import torch
import torch.nn as nn

from model import AnomalyTransformer


def my_kl_loss(p, q):
    res = p * (torch.log(p + 0.0001) - torch.log(q + 0.0001))
    return torch.mean(torch.sum(res, dim=-1), dim=1)


def association_discrepancy(series, prior, win_size):
    series_loss, prior_loss = 0.0, 0.0
    for u in range(len(prior)):
        norm_prior = prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1, win_size)
        series_loss += (torch.mean(my_kl_loss(series[u], norm_prior.detach()))
                        + torch.mean(my_kl_loss(norm_prior.detach(), series[u])))
        prior_loss += (torch.mean(my_kl_loss(norm_prior, series[u].detach()))
                       + torch.mean(my_kl_loss(series[u].detach(), norm_prior)))
    return series_loss / len(prior), prior_loss / len(prior)


class Solver:
    def __init__(self, config):
        self.__dict__.update(config)
        self.model = AnomalyTransformer(win_size=self.win_size, enc_in=self.input_c, c_out=self.output_c,
                                        d_model=self.d_model, e_layers=self.e_layers)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        self.criterion = nn.MSELoss()

    def train_loader(self):
        data = torch.randn(self.num_windows, self.win_size, self.input_c)
        return data.split(self.batch_size)

    def train(self):
        for epoch in range(self.num_epochs):
            self.model.train()
            losses = []
            for i, input_data in enumerate(self.train_loader()):
                self.optimizer.zero_grad()
                output, series, prior = self.model(input_data)
                series_loss, prior_loss = association_discrepancy(series, prior, self.win_size)
                rec_loss = self.criterion(output, input_data)
                loss1 = rec_loss - self.k * series_loss
                loss2 = rec_loss + self.k * prior_loss
                losses.append(loss1.item())

                # Minimax strategy
                loss1.backward(retain_graph=True)
                self.optimizer.step()
                loss2.backward()
                self.optimizer.step()
            print(f"Epoch {epoch + 1}: train loss {sum(losses) / len(losses):.6f}")
