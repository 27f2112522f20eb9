import torch.nn.functional as F


def loss_hinge_dis(dis_fake, dis_real):
    return F.relu(1.0 - dis_real).mean(), F.relu(1.0 + dis_fake).mean()


def loss_hinge_gen(dis_fake):
    return -dis_fake.mean()
