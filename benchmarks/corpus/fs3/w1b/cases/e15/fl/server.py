import numpy as np
import torch


class FedAvgServer:
    def __init__(self, model, users, num_glob_iters, eval_every):
        self.model = model
        self.users = users
        self.num_glob_iters = num_glob_iters
        self.eval_every = eval_every
        self.metrics = {"glob_acc": [], "glob_loss": []}

    def send_parameters(self):
        for user in self.users:
            user.set_parameters(self.model)

    def aggregate_parameters(self, selected_users):
        total = sum(u.train_samples for u in selected_users)
        for p in self.model.parameters():
            p.data = torch.zeros_like(p.data)
        for user in selected_users:
            ratio = user.train_samples / total
            for server_p, user_p in zip(self.model.parameters(), user.model.parameters()):
                server_p.data += user_p.data.clone() * ratio

    def select_users(self, round_idx, num_users):
        rng = np.random.RandomState(round_idx)
        idx = rng.choice(len(self.users), num_users, replace=False)
        return [self.users[i] for i in idx]

    def test(self):
        num_samples, tot_correct, losses = [], [], []
        for c in self.users:
            ct, c_loss, ns = c.test()
            tot_correct.append(ct * 1.0)
            num_samples.append(ns)
            losses.append(c_loss)
        return num_samples, tot_correct, losses

    def evaluate(self):
        test_samples, test_accs, test_losses = self.test()
        glob_acc = np.sum(test_accs) * 1.0 / np.sum(test_samples)
        glob_loss = np.sum([x * y for (x, y) in zip(test_samples, test_losses)]).item() / np.sum(test_samples)
        self.metrics["glob_acc"].append(glob_acc)
        self.metrics["glob_loss"].append(glob_loss)
        print(f"Average Global Accuracy = {glob_acc:.4f}, Loss = {glob_loss:.4f}")

    def train(self, users_per_round):
        for glob_iter in range(self.num_glob_iters):
            self.send_parameters()
            selected = self.select_users(glob_iter, users_per_round)
            for user in selected:
                user.train()
            self.aggregate_parameters(selected)
            if (glob_iter + 1) % self.eval_every == 0:
                self.send_parameters()
                self.evaluate()
