import torch

from conf import train_conf
from network import ImplicitNet, gradient


def sample_shape(shape_idx, n):
    g = torch.Generator().manual_seed(100 + shape_idx)
    pnts = torch.randn(n, 3, generator=g)
    normals = pnts / pnts.norm(dim=-1, keepdim=True)
    radius = 0.5 + 0.1 * shape_idx
    return normals * radius, normals


class ReconstructionRunner:
    def __init__(self, conf):
        torch.manual_seed(0)
        self.conf = conf
        self.latent_size = conf["latent_size"]
        self.d_in = self.latent_size + 3
        self.grad_lambda = conf["grad_lambda"]
        self.normals_lambda = conf["normals_lambda"]
        self.latent_lambda = conf["latent_lambda"]
        self.with_normals = conf["with_normals"]
        self.local_sigma = conf["local_sigma"]
        self.global_sigma = conf["global_sigma"]
        self.points_batch = conf["points_batch"]
        self.nepochs = conf["nepochs"]

        self.data = [sample_shape(i, 2048) for i in range(conf["num_shapes"])]
        self.network = ImplicitNet(d_in=self.d_in, **conf["network"])
        self.lat_vecs = torch.nn.Embedding(conf["num_shapes"], self.latent_size)
        torch.nn.init.normal_(self.lat_vecs.weight, 0.0, 1.0 / self.latent_size ** 0.5)
        self.optimizer = torch.optim.Adam([
            {"params": self.network.parameters(), "lr": conf["learning_rate"]},
            {"params": self.lat_vecs.parameters(), "lr": conf["lr_latent"]},
        ])

    def sample_nonmnfld(self, pnts):
        sample_local = pnts + torch.randn_like(pnts) * self.local_sigma
        sample_global = (torch.rand(pnts.shape[0] // 8, 3) * (self.global_sigma * 2)) - self.global_sigma
        return torch.cat([sample_local, sample_global], dim=0)

    def run(self):
        print("running")
        self.network.train()
        for epoch in range(self.nepochs):
            shape_idx = epoch % len(self.data)
            pnts_all, normals_all = self.data[shape_idx]
            idx = torch.randperm(pnts_all.shape[0])[: self.points_batch]
            mnfld_pnts, normals = pnts_all[idx], normals_all[idx]
            nonmnfld_pnts = self.sample_nonmnfld(mnfld_pnts)

            latent = self.lat_vecs(torch.tensor([shape_idx]))
            mnfld_input = torch.cat([latent.expand(mnfld_pnts.shape[0], -1), mnfld_pnts], dim=-1)
            nonmnfld_input = torch.cat([latent.expand(nonmnfld_pnts.shape[0], -1), nonmnfld_pnts], dim=-1)
            mnfld_input.requires_grad_()
            nonmnfld_input.requires_grad_()

            mnfld_pred = self.network(mnfld_input)
            nonmnfld_pred = self.network(nonmnfld_input)
            mnfld_grad = gradient(mnfld_input, mnfld_pred)
            nonmnfld_grad = gradient(nonmnfld_input, nonmnfld_pred)

            mnfld_loss = (mnfld_pred.abs()).mean()
            grad_loss = ((nonmnfld_grad.norm(2, dim=-1) - 1) ** 2).mean()
            latent_loss = latent.abs().mean()
            loss = mnfld_loss + self.grad_lambda * grad_loss

            if self.with_normals:
                normals_loss = ((mnfld_grad - normals).abs()).norm(2, dim=1).mean()
                loss = loss + self.normals_lambda * normals_loss

            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if epoch % 4 == 0:
                print(f"epoch {epoch} loss {loss.item():.5f} mnfld {mnfld_loss.item():.5f} "
                      f"grad {grad_loss.item():.5f} latent {latent_loss.item():.5f}")


if __name__ == "__main__":
    ReconstructionRunner(train_conf).run()
