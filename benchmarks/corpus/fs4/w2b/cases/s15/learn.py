import torch


def gaussian_nll(target, mean, logvar):
    return 0.5 * (logvar + (target - mean) ** 2 / logvar.exp()).mean()


def rmse(target, mean):
    return torch.sqrt(((target - mean) ** 2).mean())


def accumulate(totals, metrics):
    for name, value in metrics.items():
        totals[name] = totals.get(name, 0.0) + value
    return totals


def average(totals, n_batches):
    return {name: value / n_batches for name, value in totals.items()}


class Learn:
    def __init__(self, model, lr, grad_clip):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.grad_clip = grad_clip
        self.history = []

    def step(self, obs, times):
        pred_mean, pred_logvar = self.model(obs[:, :-1], times[:, :-1])
        target = obs[:, 1:]
        return {"nll": gaussian_nll(target, pred_mean, pred_logvar), "rmse": rmse(target, pred_mean)}

    def train_epoch(self, batches):
        self.model.train()
        totals = {}
        for obs, times in batches:
            self.optimizer.zero_grad()
            metrics = self.step(obs, times)
            metrics["nll"].backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
            self.optimizer.step()
            accumulate(totals, metrics)
        return average(totals, len(batches))

    def eval_epoch(self, batches):
        self.model.eval()
        totals = {}
        with torch.no_grad():
            for obs, times in batches:
                accumulate(totals, self.step(obs, times))
        return average(totals, len(batches))

    def train(self, train_batches, valid_batches, epochs):
        for epoch in range(epochs):
            train_metrics = self.train_epoch(train_batches)
            valid_metrics = self.eval_epoch(valid_batches)
            self.history.append({"epoch": epoch, "train": train_metrics, "valid": valid_metrics})
            print(f"epoch {epoch}: train nll {train_metrics['nll']:.4f} rmse {train_metrics['rmse']:.4f} | "
                  f"valid nll {valid_metrics['nll']:.4f} rmse {valid_metrics['rmse']:.4f}")
