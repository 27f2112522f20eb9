import torch

import losses


def GAN_training_function(G, D, G_optim, D_optim, config):
    def train(x):
        G.train()
        D.train()
        counter = 0
        D_optim.zero_grad()
        for step_index in range(config["num_D_steps"]):
            x_real = x[counter * config["batch_size"]:(counter + 1) * config["batch_size"]]
            z = torch.randn(x_real.shape[0], config["dim_z"])
            with torch.no_grad():
                x_fake = G(z)
            D_real, D_fake = D(x_real), D(x_fake)
            loss_real, loss_fake = losses.loss_hinge_dis(D_fake, D_real)
            D_loss = (loss_real + loss_fake) / float(config["num_D_accumulations"])
            D_loss.backward()
            D_optim.step()
            counter += 1

        G_optim.zero_grad()
        z = torch.randn(config["batch_size"], config["dim_z"])
        G_loss = losses.loss_hinge_gen(D(G(z)))
        G_loss.backward()
        G_optim.step()
        return {"G_loss": G_loss.item(), "D_loss_real": loss_real.item(), "D_loss_fake": loss_fake.item()}

    return train
