import torch

from nets import build_density_estimator


class SNPE:
    def __init__(self, simulator, prior, config):
        self.simulator = simulator
        self.prior = prior
        self.config = config
        self._theta_bank = []
        self._x_bank = []
        self._neural_net = build_density_estimator(
            prior.event_shape[0], config["x_dim"], config["hidden"]
        )
        self.optimizer = torch.optim.Adam(
            self._neural_net.parameters(), lr=config["lr"]
        )

    def _simulate(self, num):
        theta = self.prior.sample((num,))
        return theta, self.simulator(theta)

    def _train(self, retrain_from_scratch):
        if retrain_from_scratch:
            self._neural_net = build_density_estimator(
                self.prior.event_shape[0], self.config["x_dim"], self.config["hidden"]
            )
        theta = torch.cat(self._theta_bank)
        x = torch.cat(self._x_bank)
        n = theta.shape[0]
        bs = self.config["batch_size"]
        for _ in range(self.config["epochs"]):
            perm = torch.randperm(n)
            for start in range(0, n, bs):
                idx = perm[start:start + bs]
                self.optimizer.zero_grad()
                loss = -self._neural_net.log_prob(theta[idx], x[idx]).mean()
                loss.backward()
                self.optimizer.step()
        return loss.item()

    def __call__(self, num_rounds, num_simulations_per_round):
        losses = []
        for round_ in range(num_rounds):
            theta, x = self._simulate(num_simulations_per_round)
            self._theta_bank.append(theta)
            self._x_bank.append(x)
            retrain = self.config["retrain_from_scratch"] and round_ > 0
            losses.append(self._train(retrain))
        return self._neural_net, losses
